// Cross-checks a rosbridge server against roslib, the reference JavaScript
// client: subscribe, publish, call services (rosapi among them), send a
// goal with feedback to its result, cancel one goal by id and one through
// cancelAllGoals. Run: node check.mjs ws://host:port
// Prints "ok <step>" per step; exits 1 with the reason on the first failure.
import { Ros, Topic, Service, Action } from 'roslib';

const url = process.argv[2];
if (!url) {
  console.error('usage: node check.mjs ws://host:port');
  process.exit(2);
}
const stepTimeoutMs = Number(process.env.ROSLIB_STEP_TIMEOUT_MS || 20000);

function fail(why) {
  console.error(`FAIL: ${why}`);
  process.exit(1);
}

function step(name, body) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${name}: timed out`)), stepTimeoutMs);
    body(
      (v) => { clearTimeout(timer); resolve(v); },
      (e) => { clearTimeout(timer); reject(new Error(`${name}: ${e}`)); },
    );
  }).then((v) => { console.log(`ok ${name}`); return v; });
}

function expect(cond, why) {
  if (!cond) throw new Error(why);
}

function callService(ros, name, type, req) {
  const srv = new Service({ ros, name, serviceType: type });
  return new Promise((resolve, reject) => srv.callService(req, resolve, reject));
}

async function main() {
  const ros = new Ros({ url });
  await step('connect', (ok, no) => {
    ros.on('connection', ok);
    ros.on('error', (e) => no(e?.message ?? String(e)));
  });

  await step('subscribe /odom', (ok, no) => {
    const t = new Topic({ ros, name: '/odom', messageType: 'nav_msgs/msg/Odometry', throttle_rate: 50, queue_length: 1 });
    t.subscribe((m) => {
      t.unsubscribe();
      try {
        expect(typeof m.pose.pose.position.x === 'number', 'no pose.pose.position.x');
        expect(m.child_frame_id === 'base_footprint', `child_frame_id ${m.child_frame_id}`);
        ok();
      } catch (e) { no(e.message); }
    });
  });

  await step('subscribe /scan (null ranges)', (ok, no) => {
    const t = new Topic({ ros, name: '/scan', messageType: 'sensor_msgs/msg/LaserScan' });
    t.subscribe((m) => {
      t.unsubscribe();
      try {
        expect(Array.isArray(m.ranges) && m.ranges.length === 360, 'ranges is not 360 long');
        expect(m.ranges.some((r) => r === null), 'no null range: inf and NaN must arrive as null');
        expect(m.ranges.some((r) => typeof r === 'number'), 'no numeric range');
        ok();
      } catch (e) { no(e.message); }
    });
  });

  await step('subscribe camera (base64 uint8[])', (ok, no) => {
    const t = new Topic({ ros, name: '/camera/image_raw/compressed', messageType: 'sensor_msgs/msg/CompressedImage' });
    t.subscribe((m) => {
      t.unsubscribe();
      try {
        expect(typeof m.data === 'string', 'data is not base64 text');
        const bytes = Buffer.from(m.data, 'base64');
        expect(bytes[0] === 0xff && bytes[1] === 0xd8, 'data is not a JPEG');
        expect(m.format === 'jpeg', `format ${m.format}`);
        ok();
      } catch (e) { no(e.message); }
    });
  });

  await step('publish /cmd_vel', (ok, no) => {
    const echo = new Topic({ ros, name: '/cmd_vel', messageType: 'geometry_msgs/msg/Twist' });
    const pub = new Topic({ ros, name: '/cmd_vel', messageType: 'geometry_msgs/msg/Twist' });
    echo.subscribe((m) => {
      if (m.linear.x !== 0.25) return;
      echo.unsubscribe();
      callService(ros, '/rosbridgetest/state', 'rosbridgetest/srv/State', {}).then((st) => {
        try {
          expect(st.CmdVel >= 1, `fake saw ${st.CmdVel} cmd_vel messages`);
          expect(st.LastCmdVel[0] === 0.25, `fake saw linear.x ${st.LastCmdVel[0]}`);
          pub.publish({ linear: { x: 0, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
          ok();
        } catch (e) { no(e.message); }
      }, no);
    });
    pub.publish({ linear: { x: 0.25, y: 0, z: 0 }, angular: { x: 0, y: 0, z: 0 } });
  });

  await step('call /dock', (ok, no) => {
    callService(ros, '/dock', 'std_srvs/srv/Trigger', {}).then((r) => {
      try {
        expect(typeof r.success === 'boolean' && typeof r.message === 'string', JSON.stringify(r));
        ok();
      } catch (e) { no(e.message); }
    }, no);
  });

  await step('missing service fails', (ok, no) => {
    callService(ros, '/no_such_service', 'std_srvs/srv/Trigger', {}).then(
      (r) => no(`answered ${JSON.stringify(r)}`),
      (why) => (String(why).includes('does not exist') ? ok() : no(`reason: ${why}`)),
    );
  });

  await step('rosapi', (ok, no) => {
    ros.getTopics((r) => {
      try {
        const i = r.topics.indexOf('/scan');
        expect(i >= 0, `topics ${r.topics}`);
        expect(r.types[i] === 'sensor_msgs/msg/LaserScan', `type ${r.types[i]}`);
      } catch (e) { no(e.message); return; }
      ros.getActionServers((servers) => {
        if (!servers.includes('/navigate_to_pose')) { no(`action servers ${servers}`); return; }
        ros.getTopicType('/odom', (type) => {
          if (type !== 'nav_msgs/msg/Odometry') { no(`topic type ${type}`); return; }
          ros.getMessageDetails('sensor_msgs/msg/LaserScan', (defs) => {
            try {
              const decoded = ros.decodeTypeDefs(defs);
              expect('ranges' in decoded && 'header' in decoded, JSON.stringify(decoded));
              expect('stamp' in decoded.header, 'nested Header not decoded');
              ok();
            } catch (e) { no(e.message); }
          }, no);
        }, no);
      }, no);
    }, no);
  });

  const nav = new Action({ ros, name: '/navigate_to_pose', actionType: 'nav2_msgs/action/NavigateToPose' });
  const goal = (x, y) => ({
    pose: { header: { frame_id: 'map' }, pose: { position: { x, y, z: 0 }, orientation: { x: 0, y: 0, z: 0, w: 1 } } },
  });

  await step('goal with feedback and result', (ok, no) => {
    let feedback = 0;
    nav.sendGoal(goal(0.4, 0.1), (result) => {
      try {
        expect(feedback >= 1, 'no feedback before the result');
        expect(result.error_code === 0, `result ${JSON.stringify(result)}`);
        ok();
      } catch (e) { no(e.message); }
    }, (fb) => {
      if (typeof fb.distance_remaining === 'number') feedback++;
    }, no);
  });

  await step('cancel a goal', (ok, no) => {
    let id = null;
    let cancelled = false;
    id = nav.sendGoal(goal(2.5, 0), () => no('the goal succeeded though it was cancelled'), () => {
      if (!cancelled) { cancelled = true; nav.cancelGoal(id); }
    }, (why) => (String(why).includes('canceled') ? ok() : no(`failed with ${why}`)));
  });

  await step('cancelAllGoals', (ok, no) => {
    let cancelled = false;
    nav.sendGoal(goal(-1.0, 0.5), () => no('the goal succeeded though all goals were cancelled'), () => {
      if (!cancelled) { cancelled = true; nav.cancelAllGoals(); }
    }, (why) => (String(why).includes('canceled') ? ok() : no(`failed with ${why}`)));
  });

  ros.close();
}

main().then(() => process.exit(0), (e) => fail(e.message));
