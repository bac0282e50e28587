// Thea's operator console. Plain JavaScript, no library, no build step:
// it talks to the API it is served beside (/v1/...) and follows the
// session's streams (Server-Sent Events).
//
// Every string that comes from the server (a model's text, a back-end's
// result, a camera's name) is put in the page as text: text nodes and
// textContent only. Nothing is ever parsed as HTML.
'use strict';

(() => {
  // Every event kind a task's stream carries: the engine's, then the
  // server's. An EventSource only delivers named events it listens for.
  const KINDS = [
    'task_start', 'context', 'observation', 'model', 'model_call', 'model_retry', 'hook', 'tool_call',
    'tool_result', 'evaluation', 'compaction', 'notification', 'question', 'replan', 'cancel', 'memory',
    'scene', 'sink_error', 'safety', 'handover', 'done',
    'pending', 'resolved', 'notes', 'health', 'server_error',
  ];
  const TOKEN_KEY = 'thea.token';

  const $ = (id) => document.getElementById(id);
  const state = {
    token: sessionStorage.getItem(TOKEN_KEY) || '',
    instance: '',
    running: false,
    task: 0, // the task followed
    taskDone: false,
    lastId: 0, // the last event id of the followed task shown
    es: null, // its stream
    sessionStream: null,
    retries: 0,
    received: 0,
    duplicates: 0,
    turns: new Map(),
    maxTurn: 0,
    usage: { in: 0, out: 0, cached: 0 },
    pending: new Map(),
    cameras: new Map(),
    session: '', // the spec's name
    spec: null, // what the status says of the spec
    health: null, // the back-ends' health last shown
    lastEnd: null, // how the last task ended: {task, reason, time, turns, error}
    folds: new Map(), // a repeated line's signature → {li, count, turns}
    texts: [], // the task's full texts, to restore what a report cut
    results: new Map(), // a call's id → its verdict's line, placed after its result
    attention: new Set(), // pending ids that already took the focus
    world: window.TheaWorld.newWorld(), // what the observations say, for the map
    worlds: new Map(), // turn → the world as it was at that turn's end
    turnFrames: new Map(), // turn → the frames it brought
    paused: null, // the operator's pause in effect (handover.js)
  };

  class AuthError extends Error {}

  // el builds an element: attributes set as attributes, children appended
  // as nodes or text.
  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of children.flat()) {
      if (c === undefined || c === null || c === '') continue;
      e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    }
    return e;
  }
  const text = (id, s) => { $(id).textContent = s === undefined || s === null ? '' : String(s); };
  const json = (v) => { try { return JSON.stringify(v); } catch { return String(v); } };
  const fmtN = (n) => (n >= 10000 ? (n / 1000).toFixed(1) + 'k' : String(n || 0));
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  // ---- the API ------------------------------------------------------------

  async function api(method, path, body) {
    const headers = {};
    if (state.token) headers.Authorization = 'Bearer ' + state.token;
    const init = { method, headers, cache: 'no-store', credentials: 'same-origin' };
    if (method === 'POST') {
      headers['Content-Type'] = 'application/json';
      init.body = JSON.stringify(body || {});
    }
    const res = await fetch(path, init);
    let data = null;
    if ((res.headers.get('Content-Type') || '').startsWith('application/json')) {
      data = await res.json().catch(() => null);
    }
    if (res.status === 401) {
      showLogin(state.token ? 'The server refused this token.' : '');
      throw new AuthError('unauthorized');
    }
    return { status: res.status, ok: res.ok, data };
  }

  // readCookie trades the token for a read cookie, which the browser sends
  // with what it fetches by itself (the streams, the images, the report).
  async function readCookie() {
    if (!state.token) return;
    await api('POST', '/v1/auth/cookie', {});
  }

  function showLogin(why) {
    $('login').hidden = false;
    $('console').hidden = true;
    text('login-error', why);
    setLink('needs the token');
    $('token').focus();
  }

  $('login-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    state.token = $('token').value.trim();
    $('token').value = '';
    sessionStorage.setItem(TOKEN_KEY, state.token);
    try {
      await readCookie();
      $('login').hidden = true;
      $('console').hidden = false;
      await boot();
    } catch (err) {
      if (!(err instanceof AuthError)) text('login-error', String(err));
    }
  });

  const view = window.TheaWorld.viewer(el);

  // The recovery banner (recovery.js) reads the state and calls back.
  const renderRecovery = window.TheaRecovery.init({ state, el, text, api, say: (s) => say(s), AuthError,
    refresh: async () => { const r = await api('GET', '/v1/status'); applyStatus(r.data); } });
  // The operator's pause and hand back (handover.js).
  const renderHandover = window.TheaHandover.init({ state, api, say: (s) => say(s), errorOf: (r) => errorOf(r),
    refresh: async () => { const r = await api('GET', '/v1/status'); applyStatus(r.data); } });

  // ---- the session ----------------------------------------------------------

  async function boot() {
    if (state.token) await readCookie();
    const r = await api('GET', '/v1/status');
    applyStatus(r.data);
    if (!state.running) openSessionStream();
  }

  // The page holds one stream at a time where it can (a browser opens at
  // most six connections to a server): the running task's, or, while no
  // task runs, the session's, which says when one starts.
  function closeSessionStream() {
    if (state.sessionStream) state.sessionStream.close();
    state.sessionStream = null;
  }

  function openSessionStream() {
    closeSessionStream();
    const es = new EventSource('/v1/session/events');
    state.sessionStream = es;
    es.addEventListener('status', (e) => {
      try { applyStatus(JSON.parse(e.data)); } catch (err) { say('status: ' + err); }
    });
    es.onopen = () => { if (es === state.sessionStream && !state.es) setLink('live'); };
    es.onerror = async () => {
      if (es !== state.sessionStream) return;
      if (es.readyState === EventSource.CONNECTING) { if (!state.es) setLink('reconnecting…'); return; }
      if (!state.es) setLink('offline');
      // Refused (the read cookie expired) or the server went away.
      await sleep(2000);
      if (es !== state.sessionStream) return;
      try { await boot(); } catch { setTimeout(() => es === state.sessionStream && openSessionStream(), 3000); }
    };
  }

  function applyStatus(st) {
    if (!st) return;
    if (state.instance && st.instance !== state.instance) {
      // The server restarted: task ids started again.
      closeTaskStream();
      state.task = 0;
      clearTask();
    }
    state.instance = st.instance;
    if (st.session) {
      state.session = st.session;
      text('session-name', '· ' + st.session);
      $('instruction').setAttribute('placeholder', 'What should ' + st.session + ' do?');
      setTitle();
    }
    if (st.spec) {
      state.spec = st.spec;
      text('spec-description', st.spec.description);
      if (!st.spec.scene_graph && !state.task) text('brief', NO_SCENE_GRAPH);
    }
    if (st.task && st.task.state === 'done' && st.task.report && (!state.lastEnd || state.lastEnd.task !== st.task.id)) {
      const r = st.task.report;
      state.lastEnd = { task: st.task.id, reason: r.reason, turns: r.turns, error: r.error, time: '' };
    }
    if (st.health) renderHealth(st.health);
    state.paused = st.paused || null;
    renderHandover();
    for (const f of st.cameras || []) showFrame(f, f);
    if (st.notes && !state.task) renderNotes(st.notes);
    const t = st.task;
    if (t && t.id !== state.task) {
      follow(t.id, t.state === 'running');
    } else if (!t) {
      setRunning(false);
    }
    if (st.state === 'closing') say('The server is shutting down.');
  }

  // ---- following a task -----------------------------------------------------

  function follow(id, running) {
    closeTaskStream();
    clearTask();
    state.task = id;
    text('trace-task', 'task ' + id);
    setRunning(running);
    if (running) closeSessionStream();
    openTaskStream();
  }

  function closeTaskStream() {
    if (state.es) state.es.close();
    state.es = null;
  }

  function openTaskStream() {
    let url = '/v1/tasks/' + state.task + '/events?instance=' + encodeURIComponent(state.instance);
    if (state.lastId > 0) url += '&last_event_id=' + state.lastId;
    const es = new EventSource(url);
    state.es = es;
    for (const k of KINDS) es.addEventListener(k, (e) => onEvent(es, e));
    es.onopen = () => { state.retries = 0; setLink('live'); };
    es.onerror = () => {
      if (es !== state.es) return;
      if (es.readyState === EventSource.CONNECTING) { setLink('reconnecting…'); return; }
      // Closed for good: refused, the task is gone, or nothing follows.
      state.es = null;
      if (!state.taskDone) resync();
    };
  }

  // resync reopens a stream the browser gave up on, from the last event
  // shown (the server then sends only what follows it).
  async function resync() {
    setLink('reconnecting…');
    state.retries++;
    await sleep(Math.min(500 * state.retries, 5000));
    const task = state.task;
    try {
      if (state.token) await readCookie();
      const r = await api('GET', '/v1/status');
      applyStatus(r.data);
    } catch (err) {
      if (err instanceof AuthError) return;
      if (state.retries < 100) resync();
      return;
    }
    if (task === state.task && !state.taskDone && !state.es) {
      const r = await api('GET', '/v1/tasks/' + task).catch(() => null);
      if (r && r.ok) openTaskStream();
      else say('Task ' + task + ' is no longer kept by the server.');
    }
  }

  function onEvent(es, e) {
    if (es !== state.es) return;
    state.received++;
    const id = Number(e.lastEventId);
    if (!(id > state.lastId)) {
      state.duplicates++;
      counters();
      return;
    }
    state.lastId = id;
    let d;
    try { d = JSON.parse(e.data); } catch { d = { text: String(e.data) }; }
    render(e.type, id, d || {});
    counters();
    if (e.type === 'done') {
      state.taskDone = true;
      es.close();
      state.es = null;
      setLink('live');
      if (!state.sessionStream) openSessionStream();
    }
  }

  function counters() {
    const t = $('trace-list');
    t.dataset.received = String(state.received);
    t.dataset.duplicates = String(state.duplicates);
    t.dataset.last = String(state.lastId);
  }

  function clearTask() {
    state.lastId = 0;
    state.received = 0;
    state.duplicates = 0;
    state.taskDone = false;
    state.turns.clear();
    state.maxTurn = 0;
    state.usage = { in: 0, out: 0, cached: 0 };
    state.pending.clear();
    state.folds.clear();
    state.world = window.TheaWorld.newWorld();
    state.worlds.clear();
    state.turnFrames.clear();
    renderMap();
    state.texts = [];
    state.results.clear();
    $('trace-list').replaceChildren();
    counters();
    renderPending();
    renderUsage();
    $('report').hidden = true;
    for (const id of ['report-reason', 'report-meta', 'report-text', 'report-error']) text(id, '');
    renderNotes(null);
    text('brief', state.spec && !state.spec.scene_graph ? NO_SCENE_GRAPH : '—');
  }

  const NO_SCENE_GRAPH = 'No Scene Graph: the spec turns it off (scene_graph.enabled: false).';

  function setRunning(running) {
    state.running = running;
    $('run').disabled = running;
    $('reset').disabled = running;
    $('revise').disabled = !running;
    $('stop').disabled = !running;
    const h = state.health || {};
    const moving = (h.moving || []).length > 0;
    const s = $('state');
    let cls = '';
    let words = 'idle';
    if (running) {
      cls = state.pending.size ? ' waiting' : ' running';
      words = state.pending.size ? 'waiting for you' : 'running task ' + state.task;
    } else if (moving) {
      cls = ' uncertain';
      words = 'idle · the robot may be moving';
    } else if (h.uncertain) {
      cls = ' uncertain';
      words = 'idle · physical calls refused';
    }
    s.className = 'state' + cls;
    s.textContent = words;
    setTitle();
    renderRecovery();
  }

  // setTitle names the session, and what the robot waits for: a tab in the
  // background says so.
  function setTitle() {
    const base = 'Thea console' + (state.session ? ' · ' + state.session : '');
    const first = [...state.pending.values()][0];
    if (!first) { document.title = base; return; }
    const what = first.kind === 'confirm' ? 'allow ' + ((first.call && first.call.tool) || 'a call') + '?' : 'a question';
    const more = state.pending.size > 1 ? ' (+' + (state.pending.size - 1) + ')' : '';
    document.title = '⏸ Waiting for you: ' + what + more + ' · ' + base;
  }

  function setLink(s) { text('link', s); }
  function say(s) { text('control-msg', s); }

  // ---- the trace ------------------------------------------------------------

  function turnList(turn) {
    let ol = state.turns.get(turn);
    if (!ol) {
      ol = el('ol');
      let head = 'Task';
      if (turn > 0) {
        // A turn's heading opens its frames and its map.
        head = el('button', { type: 'button', class: 'turn-open', title: 'Show this turn’s frames and map' }, 'Turn ' + turn);
        head.addEventListener('click', () => {
          const w = state.worlds.get(turn);
          const opts = { sectors: state.spec && state.spec.sectors, staleAfter: state.spec && state.spec.stale_after_turns };
          view.turn(turn, state.turnFrames.get(turn) || [], w ? window.TheaWorld.map(w, opts) : null);
        });
      }
      const sec = el('section', { class: 'turn', 'data-turn': turn }, el('h3', {}, head), ol);
      $('trace-list').append(sec);
      state.turns.set(turn, ol);
    }
    return ol;
  }

  // line adds one event to the trace; parts are strings or nodes.
  function line(id, d, label, parts, cls) {
    // A server event (notes, health, a question) has no turn: it belongs
    // to the turn under way.
    const turn = d.turn === undefined ? state.maxTurn : Number(d.turn) || 0;
    if (turn > state.maxTurn) { state.maxTurn = turn; text('turns', turn); }
    const li = el('li', { class: 'ev ' + (cls || ''), 'data-id': id, 'data-kind': label },
      el('span', { class: 'kind' }, label), el('span', { class: 'body' }, parts));
    turnList(turn).append(li);
    if (fold(li, label, cls, turn)) return li;
    const list = $('trace-list');
    if (list.scrollHeight - list.scrollTop - list.clientHeight < 200) li.scrollIntoView({ block: 'nearest' });
    return li;
  }

  // fold folds a failure or warning said again (a back-end restarting, a
  // call refused for the same reason turn after turn) into its first line,
  // which counts the repeats and names their turns; numbers (times, counts)
  // do not make a line new. It reports whether li was folded (hidden).
  function fold(li, label, cls, turn) {
    if (cls !== 'bad' && cls !== 'warn') return false;
    const sig = label + '|' + li.querySelector('.body').textContent.replace(/\d+([.:]\d+)*/g, '#');
    const f = state.folds.get(sig);
    if (!f) {
      state.folds.set(sig, { li, count: 1, turns: [turn], badge: null });
      return false;
    }
    f.count++;
    if (!f.turns.includes(turn)) f.turns.push(turn);
    if (!f.badge) {
      f.badge = el('span', { class: 'count' });
      f.li.querySelector('.body').append(f.badge);
    }
    f.badge.textContent = ' ×' + f.count + (f.turns.length > 1 ? ' (turns ' + f.turns.join(', ') + ')' : '');
    li.classList.add('folded');
    li.dataset.foldedInto = f.li.dataset.id;
    return true;
  }

  // keep remembers a task's full text, for a report whose notes cut it.
  const keep = (s) => { if (s && s.length > 60) state.texts.push(s.split(/\s+/).join(' ')); };

  const args = (a) => (a && Object.keys(a).length ? el('span', { class: 'args mono' }, ' ' + json(a)) : '');

  function render(kind, id, d) {
    switch (kind) {
      case 'task_start':
        line(id, d, 'task', ['Task ' + d.task + ': ', d.text]);
        setRunning(true);
        return;
      case 'observation': {
        const o = d.observation;
        const parts = [d.tool ? d.tool + ': ' : ''];
        if (o) {
          if (o.pose && o.pose.room) parts.push('in ' + o.pose.room + ' · ');
          parts.push('holding ' + (o.held || 'nothing'));
          if (o.clearance) parts.push(' · clearance ' + Object.entries(o.clearance).map(([k, v]) => k + ' ' + v).join(', '));
          if (o.summary) parts.push(' · ' + o.summary);
        } else parts.push(d.text);
        const imgs = d.images || [];
        if (imgs.length) parts.push(' · ' + imgs.length + ' image(s)');
        line(id, d, 'observe', parts, 'routine');
        for (const img of imgs) showFrame(img, { task: d.task, event: id, turn: d.turn });
        if (o) {
          window.TheaWorld.observe(state.world, o, d.turn);
          state.worlds.set(d.turn, window.TheaWorld.copy(state.world));
          renderMap();
        }
        return;
      }
      case 'context': {
        const t = d.tokens || {};
        line(id, d, 'context', ['~' + fmtN(t.total) + ' tokens (resident ' + fmtN(t.resident) + ', refreshed ' +
          fmtN(t.refreshed) + ', accumulated ' + fmtN(t.accumulated) + ')'], 'routine');
        return;
      }
      case 'model': {
        const u = d.usage;
        if (u) {
          state.usage.in += u.input_tokens || 0;
          state.usage.out += u.output_tokens || 0;
          state.usage.cached += u.cached_input_tokens || 0;
          renderUsage();
        }
        const parts = [];
        if (d.text) parts.push('“' + d.text + '”');
        if (d.tool) parts.push(el('span', { class: 'mono' }, (d.text ? '\n' : '') + d.tool), args(d.args));
        if (!parts.length) parts.push('(no text, no call)');
        line(id, d, 'model', parts, 'model');
        return;
      }
      case 'model_call': {
        const c = d.model_call || {};
        const routine = c.purpose === 'decide' && !c.error;
        line(id, d, 'model call', [c.purpose || d.text, c.model ? ' (' + c.model + ')' : '',
          c.error ? ': ' + c.error : (routine ? '' : ': ' + (c.text || ''))], routine ? 'routine' : (c.error ? 'bad' : ''));
        return;
      }
      case 'hook': {
        const h = d.hook || {};
        const parts = [h.hook + ' ', el('strong', {}, h.decision), ' (' + h.phase + ', ' + d.tool + ')'];
        if (h.reason) parts.push(' — ' + h.reason);
        if (h.before || h.after) parts.push(el('span', { class: 'args mono' }, ' ' + json(h.before) + ' → ' + json(h.after)));
        const cls = h.decision === 'skip' ? 'routine' : h.decision === 'block' ? 'bad' : h.decision === 'allow' || h.decision === 'confirm' ? 'good' : 'warn';
        line(id, d, 'hook', parts, cls);
        return;
      }
      case 'tool_call':
        line(id, d, 'call', [el('span', { class: 'mono' }, '→ ' + d.tool), args(d.args)]);
        return;
      case 'tool_result': {
        // The envelope is flat: its value's fields beside success, reason,
        // run_id and verdict.
        const { success, reason, run_id: runID, verdict, ...value } = d.result || {};
        const ok = !!success;
        const parts = [el('span', { class: 'mono' }, (ok ? '✓ ' : '✗ ') + d.tool + ' ')];
        if (ok) parts.push(el('span', { class: 'args mono' }, json(value)));
        else parts.push(reason || 'failed');
        if (runID) parts.push(el('span', { class: 'hint' }, ' ' + runID));
        if (verdict && verdict.status) parts.push(' · verdict ' + verdict.status);
        keep(reason);
        for (const img of d.images || []) {
          parts.push(' · image ' + img.camera);
          showFrame(img, { task: d.task, event: id, turn: d.turn });
        }
        const li = line(id, d, 'result', parts, ok ? 'good' : 'bad');
        // A verdict the policy emitted before the result it judges is
        // shown after it.
        const judged = d.call_id && state.results.get(d.call_id);
        if (judged && judged.parentNode === li.parentNode) judged.before(li);
        if (d.call_id) state.results.set(d.call_id, li);
        return;
      }
      case 'evaluation': {
        const v = d.verdict || {};
        keep(v.reason);
        const li = line(id, d, 'verdict', [d.tool + ': ', el('strong', {}, v.status), v.source ? ' (by ' + v.source + ')' : '',
          v.reason ? ' — ' + v.reason : '', v.evidence ? ' · ' + v.evidence : ''], v.status === 'success' ? 'good' : 'bad');
        const result = d.call_id && state.results.get(d.call_id);
        if (result && result.parentNode === li.parentNode) result.after(li);
        else if (d.call_id) state.results.set(d.call_id, li);
        return;
      }
      case 'compaction': {
        const c = d.compaction || {};
        line(id, d, 'compaction', [c.ok ? 'compacted ' + fmtN(c.tokens_before) + ' → ' + fmtN(c.tokens_after) + ' tokens in ' +
          c.rounds + ' round(s)' : 'compaction failed: ' + (c.error || d.text)], c.ok ? 'warn' : 'bad');
        return;
      }
      case 'scene':
        if (d.tool) line(id, d, 'scene', [d.text], 'warn');
        else { text('brief', d.text); line(id, d, 'brief', ['Scene Graph Brief refreshed'], 'routine'); }
        return;
      case 'notification': line(id, d, 'notify', [d.text]); return;
      case 'question': line(id, d, 'question', [d.text]); return;
      case 'replan': line(id, d, 'revised', [d.text], 'warn'); return;
      case 'cancel': line(id, d, 'cancel', [d.text], 'bad'); return;
      case 'memory': line(id, d, 'memory', [d.text]); return;
      case 'safety':
        keep(d.text);
        line(id, d, 'safety', [d.text], d.safety === 'operator_clear' || d.safety === 'uncertainty_cleared' ? 'good' : 'bad');
        return;
      case 'model_retry': line(id, d, 'retry', [d.text], 'warn'); return;
      case 'handover': {
        const h = d.handover || {};
        line(id, d, h.action === 'pause' ? 'paused' : 'handed back', [d.text], 'warn');
        // The status is the truth of whether the session is paused now: this
        // event may be read after the hand back that ended it.
        api('GET', '/v1/status').then((r) => { if (r.ok) applyStatus(r.data); }).catch(() => {});
        return;
      }
      case 'sink_error': case 'server_error': line(id, d, 'error', [d.text || d.error], 'bad'); return;
      case 'pending':
        state.pending.set(d.id, d);
        line(id, d, 'waiting', [(d.kind === 'confirm' ? 'confirmation: ' : 'question: ') + d.text], 'warn');
        renderPending();
        return;
      case 'resolved':
        state.pending.delete(d.id);
        line(id, d, 'resolved', [(d.kind === 'confirm' ? 'confirmation ' : 'question ') + d.id + ' ' + d.outcome +
          (d.confirm === true ? ' (allowed)' : d.confirm === false ? ' (blocked)' : '') + (d.error ? ': ' + d.error : '')]);
        renderPending();
        return;
      case 'notes': renderNotes(d); line(id, d, 'notes', ['phase ' + d.phase], 'routine'); return;
      case 'health': renderHealth(d); line(id, d, 'health', [healthLine(d)], 'routine'); return;
      case 'done': {
        const r = d.done || {};
        state.lastEnd = { task: d.task || state.task, reason: r.reason, turns: r.turns, error: r.error, time: d.time };
        line(id, d, 'done', [r.reason + ' after ' + r.turns + ' turn(s)'], r.reason === 'final_answer' ? 'good' : 'bad');
        renderReport(d.task || state.task, r);
        state.pending.clear();
        renderPending();
        setRunning(false);
        return;
      }
      default:
        line(id, d, kind, [d.text || json(d)]);
    }
  }

  function renderUsage() {
    text('tokens-in', fmtN(state.usage.in));
    text('tokens-out', fmtN(state.usage.out));
    text('tokens-cached', fmtN(state.usage.cached));
    text('turns', state.maxTurn);
  }

  function renderReport(task, r) {
    $('report').hidden = false;
    const b = $('report-reason');
    b.textContent = r.reason;
    b.className = 'badge ' + (r.reason === 'final_answer' ? 'ok' : r.reason === 'cancelled' ? 'warn' : 'fail');
    text('report-meta', 'task ' + task + ' · ' + r.turns + ' turn(s)');
    text('report-text', whole(r.text || ''));
    text('report-error', r.error);
    const u = r.usage;
    if (u && (u.input_tokens || u.output_tokens)) {
      state.usage = { in: u.input_tokens || 0, out: u.output_tokens || 0, cached: u.cached_input_tokens || 0 };
      renderUsage();
    }
    const a = $('report-link');
    a.hidden = !r.run_dir;
    $('report-nolog').hidden = !!r.run_dir;
    a.setAttribute('href', '/v1/tasks/' + task + '/report');
  }

  // whole restores what the report's Task Notes cut (" …[379 chars
  // omitted]… ") from the task's own events: the line whose beginning and
  // end match one the trace holds in full is shown in full.
  function whole(report) {
    const marker = / …\[\d+ chars omitted\]… /;
    return report.split('\n').map((ln) => {
      const m = ln.match(marker);
      if (!m) return ln;
      const head = ln.slice(0, m.index);
      const tail = ln.slice(m.index + m[0].length);
      const hs = head.slice(-24);
      for (const t of state.texts) {
        const i = t.indexOf(hs);
        if (i >= 0 && t.endsWith(tail) && i + hs.length <= t.length - tail.length) return head + t.slice(i + hs.length);
      }
      return ln;
    }).join('\n');
  }

  // ---- what waits for the operator ------------------------------------------

  function renderPending() {
    const list = $('pending-list');
    list.replaceChildren();
    for (const p of state.pending.values()) list.append(p.kind === 'confirm' ? confirmCard(p) : questionCard(p));
    $('pending').hidden = state.pending.size === 0;
    setRunning(state.running);
    attend();
  }

  // attend draws the operator to what newly waits: the keyboard focus goes
  // to it (a confirmation's card, never its Allow: no key answers it; a
  // question's answer field), the title says so (setTitle), and a desktop
  // notification, when the operator allowed them, tells a background tab.
  function attend() {
    for (const id of [...state.attention]) if (!state.pending.has(id)) state.attention.delete(id);
    const fresh = [...state.pending.values()].filter((p) => !state.attention.has(p.id));
    if (!fresh.length) return;
    for (const p of fresh) state.attention.add(p.id);
    const p = fresh[0];
    const card = $('pending-list').querySelector('[data-pending="' + p.id + '"]');
    if (card) {
      const field = p.kind === 'confirm' ? card : card.querySelector('input');
      field.focus();
      card.scrollIntoView({ block: 'nearest' });
    }
    if ($('notify').checked && 'Notification' in window && Notification.permission === 'granted' && document.hidden) {
      const n = new Notification('Thea: the robot waits for you', {
        body: (p.kind === 'confirm' ? 'Allow ' + ((p.call && p.call.tool) || 'a call') + '? ' : '') + p.text, tag: 'thea-pending-' + p.id });
      n.onclick = () => { window.focus(); n.close(); };
    }
  }

  function frameFigures(frames) {
    const list = frames && frames.length ? frames : [...state.cameras.values()].map((c) => c.frame);
    return el('div', { class: 'frames' }, list.filter((f) => f && f.url).map((f) =>
      el('figure', {}, zoomable(el('img', { src: f.url, alt: f.camera + ' camera, turn ' + f.turn, width: f.width, height: f.height }), () => f),
        el('figcaption', {}, f.camera + ' · turn ' + f.turn))));
  }

  // zoomable opens the frame an image shows at full size when clicked (or
  // Enter on it: it takes the focus like a button).
  function zoomable(img, frame) {
    img.classList.add('zoom');
    img.setAttribute('tabindex', '0');
    img.setAttribute('role', 'button');
    img.addEventListener('click', () => view.frame(frame()));
    img.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); view.frame(frame()); } });
    return img;
  }

  // renderMap draws the map of what the task observed.
  function renderMap() {
    const sp = state.spec || {};
    const svg = window.TheaWorld.map(state.world, { sectors: sp.sectors, staleAfter: sp.stale_after_turns });
    $('map').replaceChildren(...(svg ? [svg, window.TheaWorld.outsideNote(svg)].filter(Boolean) : [el('p', { class: 'hint' }, 'No position observed yet.')]));
  }

  function confirmCard(p) {
    const c = p.call || {};
    const allow = el('button', { type: 'button', class: 'allow' }, 'Allow');
    const block = el('button', { type: 'button', class: 'block' }, 'Block');
    const card = el('div', { class: 'ask', role: 'group', 'aria-label': 'Confirmation ' + p.id, 'data-pending': p.id, tabindex: -1 },
      el('p', { class: 'question' }, p.text),
      el('dl', {},
        el('dt', {}, 'Call'), el('dd', { class: 'mono' }, c.tool || '(not named)'),
        el('dt', {}, 'Arguments'), el('dd', {}, el('pre', {}, json(c.args || {}))),
        el('dt', {}, 'Rule'), el('dd', { class: 'mono' }, c.hook || '(not named)')),
      frameFigures(p.frames),
      el('div', { class: 'buttons' }, allow, block));
    const answer = async (yes) => {
      allow.disabled = block.disabled = true;
      try {
        const r = await api('POST', '/v1/confirmations/' + p.id, { confirm: yes });
        say(r.ok ? (yes ? 'Allowed ' : 'Blocked ') + (c.tool || 'the call') + '.' : (r.data && r.data.error) || 'HTTP ' + r.status);
        if (r.status === 404) { state.pending.delete(p.id); renderPending(); }
      } catch (err) {
        if (!(err instanceof AuthError)) say(String(err));
        allow.disabled = block.disabled = false;
      }
    };
    allow.addEventListener('click', () => answer(true));
    block.addEventListener('click', () => answer(false));
    return card;
  }

  function questionCard(p) {
    const input = el('input', { type: 'text', id: 'answer-' + p.id });
    const send = async (answer) => {
      try {
        const r = await api('POST', '/v1/questions/' + p.id + '/answer', { answer });
        say(r.ok ? 'Answered: ' + answer : (r.data && r.data.error) || 'HTTP ' + r.status);
        if (r.status === 404) { state.pending.delete(p.id); renderPending(); }
      } catch (err) {
        if (!(err instanceof AuthError)) say(String(err));
      }
    };
    const choices = (p.choices || []).map((c) => {
      const b = el('button', { type: 'button' }, c);
      b.addEventListener('click', () => send(c));
      return b;
    });
    const form = el('form', { class: 'answer' }, input, el('button', { type: 'submit' }, 'Answer'));
    form.addEventListener('submit', (e) => { e.preventDefault(); if (input.value.trim()) send(input.value); });
    const cands = (p.candidates || []).map((c) => el('li', {},
      c.image && c.image.url ? el('img', { src: c.image.url, alt: 'last view of ' + c.ref }) : '',
      el('span', {}, el('strong', { class: 'mono' }, c.ref), c.line ? ' — ' + c.line : '')));
    return el('div', { class: 'ask', role: 'group', 'aria-label': 'Question ' + p.id, 'data-pending': p.id, tabindex: -1 },
      el('p', { class: 'question' }, p.text),
      cands.length ? el('ul', { class: 'candidates' }, cands) : '',
      choices.length ? el('div', { class: 'buttons' }, choices) : '',
      el('label', { for: 'answer-' + p.id }, 'Your answer'), form);
  }

  // ---- cameras, health, notes -----------------------------------------------

  // showFrame shows an image as its camera's latest frame, unless a newer
  // one is shown already.
  function showFrame(img, at) {
    if (!img || !img.url || !img.camera) return;
    const frame = { ...img, task: at.task, event: at.event, turn: at.turn };
    if (at.task === state.task || !state.task) {
      const list = state.turnFrames.get(at.turn) || [];
      if (!list.some((f) => f.url === img.url)) list.push(frame);
      state.turnFrames.set(at.turn, list);
    }
    let cam = state.cameras.get(img.camera);
    if (cam && (cam.frame.task > frame.task || (cam.frame.task === frame.task && cam.frame.event >= frame.event))) return;
    if (!cam) {
      const list = $('camera-list');
      if (!state.cameras.size) list.replaceChildren();
      const image = el('img', { alt: '' });
      zoomable(image, () => state.cameras.get(img.camera).frame);
      const caption = el('figcaption');
      const fig = el('figure', { 'data-camera': img.camera }, image, caption);
      list.append(fig);
      cam = { image, caption, frame };
      state.cameras.set(img.camera, cam);
    }
    cam.frame = frame;
    cam.image.setAttribute('src', img.url);
    cam.image.setAttribute('alt', img.camera + ' camera, turn ' + frame.turn);
    if (img.width) cam.image.setAttribute('width', img.width);
    if (img.height) cam.image.setAttribute('height', img.height);
    cam.caption.textContent = img.camera + ' · task ' + frame.task + ', turn ' + frame.turn;
  }

  function healthLine(h) {
    const parts = [h.restarts + ' restart(s)'];
    if (h.uncertain) parts.push('uncertain');
    if (h.body_lock && h.body_lock.held) parts.push('body lock held by ' + h.body_lock.tool);
    return parts.join(' · ');
  }

  function renderHealth(h) {
    state.health = h;
    const dl = $('health');
    dl.replaceChildren();
    const row = (k, v, bad) => dl.append(el('dt', {}, k), el('dd', { class: bad ? 'bad' : '' }, v));
    for (const t of h.toolsets || []) row(t.toolset, t.restarts + ' restart(s)' + (t.uncertain ? ' · uncertain' : ''), !!t.uncertain);
    row('State', h.uncertain ? h.uncertain : 'certain', !!h.uncertain);
    const l = h.body_lock || {};
    const lock = l.mode === 'none' || !l.mode ? 'none' : (l.name || '') + ' (' + l.mode + ')';
    row('Body lock', lock + (l.held ? ' · held by ' + l.tool + ' since turn ' + l.turn : ' · free'));
    for (const m of h.moving || []) row('Moving', m, true);
    setRunning(state.running);
  }

  // renderNotes shows the Task Notes; a turn's events share one line (a
  // turn with a late reply and a result is one turn, not two).
  function renderNotes(n) {
    text('notes-goal', n ? n.goal : '—');
    text('notes-phase', n ? n.phase : '—');
    const turns = [];
    for (const e of (n && n.timeline) || []) {
      const last = turns[turns.length - 1];
      if (last && last.turn === e.turn) {
        if (!last.texts.includes(e.text)) last.texts.push(e.text);
      } else turns.push({ turn: e.turn, texts: [e.text] });
    }
    $('notes-timeline').replaceChildren(...turns.map((t) => el('li', { 'data-turn': t.turn }, 'turn ' + t.turn + ': ' + t.texts.join(' · '))));
  }

  // ---- the operator's controls ----------------------------------------------

  async function control(fn) {
    say('');
    try { await fn(); } catch (err) { if (!(err instanceof AuthError)) say(String(err)); }
  }
  const errorOf = (r) => (r.data && r.data.error) || 'HTTP ' + r.status;

  $('task-form').addEventListener('submit', (e) => {
    e.preventDefault();
    control(async () => {
      const instruction = $('instruction').value.trim();
      if (!instruction) { say('Type an instruction first.'); return; }
      const r = await api('POST', '/v1/tasks', { instruction });
      if (r.status !== 202) { say(errorOf(r)); return; }
      $('instruction').value = '';
      if (state.task !== r.data.id) follow(r.data.id, true);
    });
  });
  $('revise').addEventListener('click', () => control(async () => {
    const instruction = $('instruction').value.trim();
    if (!instruction) { say('Type the revised instruction first.'); return; }
    const r = await api('POST', '/v1/tasks/' + state.task + '/revise', { instruction });
    if (!r.ok) { say(errorOf(r)); return; }
    $('instruction').value = '';
    say('Revised: the task reads it before its next step.');
  }));
  // Escape stops the running task (as the Stop button at the top does),
  // unless it closes a frame shown at full size first.
  document.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || e.defaultPrevented || !state.running || $('stop').disabled) return;
    e.preventDefault();
    $('stop').click();
  });
  // Desktop notifications are asked for on the operator's gesture only (a
  // browser without them shows no such choice).
  if (!('Notification' in window)) $('notify').closest('label').hidden = true;
  $('notify').addEventListener('change', async (e) => {
    if (!e.target.checked || !('Notification' in window)) return;
    if (Notification.permission === 'default') await Notification.requestPermission();
    if (Notification.permission !== 'granted') {
      e.target.checked = false;
      say('The browser does not allow notifications for this page.');
    }
  });
  $('stop').addEventListener('click', () => control(async () => {
    const interrupt = $('interrupt').checked;
    const r = await api('POST', '/v1/tasks/' + state.task + '/stop', { interrupt });
    say(r.ok ? (interrupt ? 'Stopping, and interrupting the running call…' : 'Stopping at the next step…') : errorOf(r));
  }));
  $('reset').addEventListener('click', () => control(async () => {
    const r = await api('POST', '/v1/session/reset', {});
    say(r.ok ? 'Session reset: the next task starts with a fresh context.' : errorOf(r));
  }));
  $('show-routine').addEventListener('change', (e) => {
    $('trace-list').classList.toggle('show-routine', e.target.checked);
  });

  boot().catch((err) => { if (!(err instanceof AuthError)) { setLink('offline'); say(String(err)); } });
})();
