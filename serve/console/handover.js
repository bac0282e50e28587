// Thea console: an operator's takeover. Pause ends the running call through
// the stop path and holds the session before its next model request; the
// operator drives the robot with their own teleop, then hands back with a
// note that the next request tells the model. Text from the server is text
// (textContent) only.
'use strict';

window.TheaHandover = (() => {
  const clock = (iso) => {
    const d = new Date(iso);
    return Number.isNaN(d.getTime()) ? '' : d.toLocaleTimeString([], { hour12: false });
  };

  // init wires the Pause button and the hand-back form; c holds the
  // console's state and helpers (api, say, refresh, errorOf). It returns
  // render, which the console calls whenever the pause may have changed
  // (state.paused: the pause in effect, or null).
  function init(c) {
    const $ = (id) => document.getElementById(id);

    function render() {
      const p = c.state.paused;
      $('pause').disabled = !!p;
      $('handover').hidden = !p;
      if (!p) return;
      let facts = 'Paused by ' + p.by + (p.paused_at ? ' at ' + clock(p.paused_at) : '') + '.';
      if (p.call) facts += ' ' + p.call + ' was stopped through the stop path.';
      facts += ' The agent makes no request until you hand back; drive the robot with its own controls meanwhile.';
      $('handover-facts').textContent = facts;
    }

    $('pause').addEventListener('click', async () => {
      $('pause').disabled = true;
      try {
        const r = await c.api('POST', '/v1/session/pause', { by: 'console' });
        if (r.ok || r.status === 409) await c.refresh();
        c.say(r.ok ? 'Paused: the running call was stopped; the agent waits for you to hand back.' : c.errorOf(r));
      } finally { render(); }
    });
    $('hand-back').addEventListener('click', async () => {
      $('hand-back').disabled = true;
      try {
        const note = $('handover-note').value.trim();
        const r = await c.api('POST', '/v1/session/resume', { by: 'console', note });
        if (r.ok) {
          $('handover-note').value = '';
          c.state.paused = null;
        }
        await c.refresh();
        c.say(r.ok ? 'Handed back: the next request tells the model what you wrote.' : c.errorOf(r));
      } finally {
        $('hand-back').disabled = false;
        render();
      }
    });
    return render;
  }

  return { init };
})();
