// Cross-checks the fake arm (rosbridgetest -robot arm) against roslib:
// joint states, tf_static as a latched topic, a raw rgb8 image, a
// Detection3DArray, the safety sensors, rosapi's view of the arm's graph
// (action goal details of a custom package), a pick with feedback to its
// result, a FollowJointTrajectory goal, and the dashboard stop.
// Run: node arm.mjs ws://host:port
// Prints "ok <step>" per step; exits 1 with the reason on the first failure.
import { Ros, Topic, Service, Action } from 'roslib';

const url = process.argv[2];
if (!url) {
  console.error('usage: node arm.mjs ws://host:port');
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

function once(ros, name, messageType, check) {
  return (ok, no) => {
    const t = new Topic({ ros, name, messageType });
    t.subscribe((m) => {
      t.unsubscribe();
      try { check(m); ok(); } catch (e) { no(e.message); }
    });
  };
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

  await step('subscribe /joint_states', once(ros, '/joint_states', 'sensor_msgs/msg/JointState', (m) => {
    expect(m.name.length === 7 && m.position.length === 7, `joint state ${JSON.stringify(m)}`);
    expect(m.name[0] === 'shoulder_pan_joint', `first joint ${m.name[0]}`);
  }));

  await step('subscribe /tf_static (latched)', once(ros, '/tf_static', 'tf2_msgs/msg/TFMessage', (m) => {
    expect(m.transforms.some((t) => t.header.frame_id === 'world' && t.child_frame_id === 'base_link'), 'no world → base_link');
  }));

  await step('subscribe /tf', once(ros, '/tf', 'tf2_msgs/msg/TFMessage', (m) => {
    expect(m.transforms[0].child_frame_id === 'tool0', `child ${m.transforms[0].child_frame_id}`);
    expect(typeof m.transforms[0].transform.translation.x === 'number', 'no translation');
  }));

  await step('subscribe wrist camera (raw rgb8)', once(ros, '/wrist_camera/image_raw', 'sensor_msgs/msg/Image', (m) => {
    expect(m.encoding === 'rgb8', `encoding ${m.encoding}`);
    expect(Buffer.from(m.data, 'base64').length === m.step * m.height, 'data is not step × height bytes');
  }));

  await step('subscribe scene camera (compressed)', once(ros, '/scene_camera/image_raw/compressed', 'sensor_msgs/msg/CompressedImage', (m) => {
    const bytes = Buffer.from(m.data, 'base64');
    expect(bytes[0] === 0xff && bytes[1] === 0xd8 && m.format === 'jpeg', 'not a JPEG');
  }));

  await step('subscribe /detections', once(ros, '/detections', 'vision_msgs/msg/Detection3DArray', (m) => {
    const classes = m.detections.map((d) => d.results[0].hypothesis.class_id);
    expect(classes.includes('mug') && classes.includes('bin'), `classes ${classes}`);
    expect(typeof m.detections[0].results[0].pose.pose.position.z === 'number', 'no pose');
  }));

  await step('subscribe the safety sensors', (ok, no) => {
    once(ros, '/safety/light_curtain', 'std_msgs/msg/Bool', (m) => expect(m.data === false, `curtain ${m.data}`))(() => {
      once(ros, '/safety/person_distance', 'std_msgs/msg/Float32', (m) => expect(typeof m.data === 'number', `distance ${m.data}`))(ok, no);
    }, no);
  });

  await step('rosapi (arm graph)', (ok, no) => {
    ros.getActionServers((servers) => {
      for (const a of ['/pick', '/place', '/arm_controller/follow_joint_trajectory', '/gripper_controller/gripper_cmd']) {
        if (!servers.includes(a)) { no(`action servers ${servers}`); return; }
      }
      ros.getServiceType('/dashboard_client/stop', (type) => {
        if (type !== 'std_srvs/srv/Trigger') { no(`stop service type ${type}`); return; }
        callService(ros, '/rosapi/action_goal_details', 'rosapi_msgs/srv/ActionGoalDetails', { type: 'arm_skills/action/Pick' }).then((r) => {
          try {
            expect(r.typedefs[0].fieldnames.includes('object'), JSON.stringify(r));
            ok();
          } catch (e) { no(e.message); }
        }, no);
      }, no);
    }, no);
  });

  await step('pick with feedback and result', (ok, no) => {
    const pick = new Action({ ros, name: '/pick', actionType: 'arm_skills/action/Pick' });
    let feedback = 0;
    pick.sendGoal({ object: 'mug' }, (result) => {
      try {
        expect(feedback >= 1, 'no feedback before the result');
        expect(result.success === true, `result ${JSON.stringify(result)}`);
        ok();
      } catch (e) { no(e.message); }
    }, (fb) => { if (typeof fb.progress === 'number') feedback++; }, no);
  });

  await step('follow joint trajectory', (ok, no) => {
    const fjt = new Action({ ros, name: '/arm_controller/follow_joint_trajectory', actionType: 'control_msgs/action/FollowJointTrajectory' });
    fjt.sendGoal({
      trajectory: { joint_names: ['shoulder_pan_joint'], points: [{ positions: [0.2], time_from_start: { sec: 0, nanosec: 200000000 } }] },
    }, (result) => {
      try { expect(result.error_code === 0, JSON.stringify(result)); ok(); } catch (e) { no(e.message); }
    }, () => {}, no);
  });

  await step('dashboard stop halts a motion', (ok, no) => {
    const place = new Action({ ros, name: '/place', actionType: 'arm_skills/action/Place' });
    let stopped = false;
    place.sendGoal({ target: 'bin' }, () => no('the place succeeded though the arm was stopped'), () => {
      if (stopped) return;
      stopped = true;
      callService(ros, '/dashboard_client/stop', 'std_srvs/srv/Trigger', {}).then((r) => {
        if (r.success !== true) no(`stop answered ${JSON.stringify(r)}`);
      }, no);
    }, (why) => (String(why).includes('aborted') || String(why).includes('dashboard') ? ok() : no(`failed with ${why}`)));
  });

  ros.close();
}

main().then(() => process.exit(0), (e) => fail(e.message));
