// Thea console: what the operator reads and does after a stop, a crash or a
// task given up on. The back-ends' health says whether the robot's state is
// uncertain (physical calls refused) and whether a motion is still in
// flight; the last task's end says how it ended. The banner says what is
// known in words and offers Clear, with a confirmation, once nothing moves.
// Text from the server is text (textContent) only.
'use strict';

window.TheaRecovery = (() => {
  const ENDINGS = {
    cancelled: 'was stopped',
    error: 'ended in an error',
    failure_budget: 'gave up: too many failed calls',
    max_turns: 'gave up: its turn limit was reached',
    loop_detected: 'gave up: it was repeating itself',
  };

  const clock = (iso) => {
    const d = new Date(iso);
    return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString([], { hour12: false });
  };
  const ago = (iso) => {
    const s = Math.round((Date.now() - new Date(iso).getTime()) / 1000);
    if (!(s >= 0)) return '';
    return s < 90 ? s + ' s ago' : Math.round(s / 60) + ' min ago';
  };

  // init wires the banner; c holds the console's state and helpers (el,
  // api, say, refresh, AuthError). It returns render, which the console
  // calls whenever the health, the running state or a task's end changes.
  function init(c) {
    const $ = (id) => document.getElementById(id);
    let dismissed = 0; // the task whose ending the operator dismissed
    let poll = 0;

    function facts() {
      const st = c.state;
      const h = st.health || {};
      const moving = h.moving || [];
      const uncertain = h.uncertain || '';
      const end = st.lastEnd;
      const ended = end && end.reason !== 'final_answer' && end.task !== dismissed && !st.running;
      const out = { moving, uncertain, ended, lines: [], title: '' };
      if (moving.length) {
        out.title = 'The robot may still be moving';
        for (const m of moving) out.lines.push(['Moving now', m]);
        out.lines.push(['Clear', 'refused until it ends: its stop path stops it, or kills its back-end after the stop grace']);
      } else if (uncertain) {
        out.title = 'The robot’s state is uncertain';
      } else if (ended) {
        out.title = 'Task ' + end.task + ' ' + (ENDINGS[end.reason] || 'ended: ' + end.reason);
      }
      if (uncertain) {
        if (h.uncertain_toolset) out.lines.push(['Back-end', h.uncertain_toolset]);
        if (h.uncertain_since) out.lines.push(['Since', clock(h.uncertain_since) + ' (' + ago(h.uncertain_since) + ')']);
        out.lines.push(['What is known', uncertain]);
        out.lines.push(['Until then', 'physical calls are refused (other calls still run). A well-formed observation clears it by itself; ' +
          'Clear does it once you have checked the robot.']);
      }
      if (ended) {
        out.lines.push(['Last task', 'task ' + end.task + ' ' + (ENDINGS[end.reason] || end.reason) +
          (end.time ? ' at ' + clock(end.time) : '') + ' after ' + end.turns + ' turn(s)' + (end.error ? ': ' + end.error : '')]);
        if (!uncertain && !moving.length) {
          out.lines.push(['Now', 'the back-ends report no motion in flight and no uncertainty: physical calls are allowed. ' +
            'If the robot was moving when the task ended, check it before the next task.']);
        }
      }
      return out;
    }

    function render() {
      const st = c.state;
      const f = facts();
      const show = !!(f.moving.length || f.uncertain || f.ended);
      $('recovery').hidden = !show;
      $('recovery').classList.toggle('moving', f.moving.length > 0);
      const note = $('physical-note');
      note.hidden = !f.uncertain && !f.moving.length;
      note.textContent = f.moving.length ? 'A motion is still running' : 'Physical calls refused until cleared';
      clearTimeout(poll);
      if (!show) {
        $('clear-confirm').hidden = true;
        return;
      }
      c.text('recovery-h', f.title);
      $('recovery-facts').replaceChildren(...f.lines.map(([k, v]) => c.el('li', {}, c.el('strong', {}, k + ': '), v)));
      const clear = $('clear');
      clear.hidden = !f.uncertain;
      clear.disabled = f.moving.length > 0 || st.running;
      clear.title = clear.disabled ? (st.running ? 'Clear once the task has ended' : 'Clear once the motion has ended') : '';
      if (clear.disabled) $('clear-confirm').hidden = true;
      $('recovery-dismiss').hidden = !!f.uncertain || f.moving.length > 0;
      // The session's stream says when a task starts or ends, not when a
      // motion given up on ends: ask again while one may still run.
      if (f.moving.length && !st.running) poll = setTimeout(() => c.refresh(), 2000);
    }

    $('clear').addEventListener('click', () => {
      $('clear-confirm').hidden = false;
      $('clear-no').focus(); // never the clear itself: a key must not clear
    });
    $('clear-no').addEventListener('click', () => {
      $('clear-confirm').hidden = true;
      $('clear').focus();
    });
    $('clear-yes').addEventListener('click', async () => {
      $('clear-yes').disabled = true;
      try {
        const r = await c.api('POST', '/v1/session/clear', { checked: true });
        if (r.ok) {
          c.say('Cleared: physical calls are allowed again (was: ' + r.data.was + '). The clear is recorded in the next task’s run log.');
          $('clear-confirm').hidden = true;
          if (c.state.lastEnd) dismissed = c.state.lastEnd.task;
        } else {
          c.say('Not cleared: ' + ((r.data && r.data.error) || 'HTTP ' + r.status));
        }
        await c.refresh();
      } catch (err) {
        if (!(err instanceof c.AuthError)) c.say(String(err));
      } finally {
        $('clear-yes').disabled = false;
      }
    });
    $('recovery-dismiss').addEventListener('click', () => {
      if (c.state.lastEnd) dismissed = c.state.lastEnd.task;
      render();
    });
    return render;
  }

  return { init };
})();
