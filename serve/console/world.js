// Thea console: the world as a picture. A top-down map drawn from the
// task's observations (the robot with its heading, the detected objects and
// the places they lie on at their positions, facts not re-observed for the
// spec's stale_after_turns greyed, the clearance sectors as wedges coloured
// by how close the nearest return is), and a viewer that shows a frame at
// full size, or a turn's frames and its map. SVG built with the DOM: no
// library, nothing fetched; names reach the picture as text only.
'use strict';

window.TheaWorld = (() => {
  const NS = 'http://www.w3.org/2000/svg';
  const SIZE = 320; // the map's width in CSS pixels
  const PAD = 18;

  function s(tag, attrs, ...children) {
    const e = document.createElementNS(NS, tag);
    for (const [k, v] of Object.entries(attrs || {})) if (v !== undefined && v !== null) e.setAttribute(k, String(v));
    for (const c of children.flat()) if (c !== undefined && c !== null && c !== '') e.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return e;
  }
  const num = (v) => typeof v === 'number' && Number.isFinite(v);
  // r2 rounds to centimetres; beyond 1e12 m there are none to round (and
  // v * 100 could overflow to Infinity).
  const r2 = (v) => (Math.abs(v) >= 1e12 ? v : Math.round(v * 100) / 100);

  // ---- what the observations say ---------------------------------------------

  // newWorld is an empty picture; observe adds one observation event to it.
  const newWorld = () => ({ turn: 0, pose: null, clearance: null, objects: new Map(), places: new Map() });

  function observe(w, o, turn) {
    if (!o) return;
    w.turn = Math.max(w.turn, turn || 0);
    if (o.pose && num(o.pose.x) && num(o.pose.y)) w.pose = { x: o.pose.x, y: o.pose.y, theta: num(o.pose.theta_deg) ? o.pose.theta_deg : 0, room: o.pose.room || '' };
    if (o.clearance && Object.keys(o.clearance).length) w.clearance = { ...o.clearance };
    const onto = new Map();
    for (const d of o.detections || []) {
      if (!d || !d.position || !num(d.position.x) || !num(d.position.y)) continue;
      const key = d.id || d.name + '@' + r2(d.position.x) + ',' + r2(d.position.y);
      // One object moved (picked up, put down) is one object: the newest
      // sighting of a name without an id replaces an older one.
      if (!d.id) for (const [k, v] of w.objects) if (v.name === d.name && !v.id && k !== key) w.objects.delete(k);
      w.objects.set(key, { id: d.id || '', name: d.name, x: d.position.x, y: d.position.y, turn: w.turn });
      if (d.target && (d.relation === 'on' || d.relation === 'in')) {
        const p = onto.get(d.target) || { xs: 0, ys: 0, n: 0 };
        p.xs += d.position.x; p.ys += d.position.y; p.n++;
        onto.set(d.target, p);
      }
    }
    for (const [name, p] of onto) w.places.set(name, { name, x: p.xs / p.n, y: p.ys / p.n, turn: w.turn });
  }

  const copy = (w) => ({ turn: w.turn, pose: w.pose && { ...w.pose }, clearance: w.clearance && { ...w.clearance },
    objects: new Map([...w.objects].map(([k, v]) => [k, { ...v }])), places: new Map([...w.places].map(([k, v]) => [k, { ...v }])) });

  // ---- the clearance sectors ---------------------------------------------------

  // sectorAngle is where a sector points, in degrees counter-clockwise from
  // the robot's heading, read from its name, aliases and direction in words;
  // a sector no word places is spread evenly.
  function sectorAngle(sec, i, n) {
    const words = [sec.name, ...(sec.aliases || []), sec.direction || ''].join(' ').toLowerCase();
    const has = (...ws) => ws.some((x) => words.includes(x));
    const front = has('front', 'forward', 'ahead');
    const back = has('back', 'behind', 'rear');
    const left = has('left');
    const right = has('right');
    if (front && left) return 45;
    if (front && right) return -45;
    if (back && left) return 135;
    if (back && right) return -135;
    if (front) return 0;
    if (back) return 180;
    if (left) return 90;
    if (right) return -90;
    return (360 * i) / n;
  }

  // colour of a wedge: red within the embodiment's clearance, amber within a
  // metre, green beyond.
  const shade = (d) => (d < 0.5 ? '#b3261e' : d < 1 ? '#e8a200' : '#2e9a4f');

  // ---- drawing -----------------------------------------------------------------

  // ---- the frame ---------------------------------------------------------------

  // A back-end may report any coordinate, so nothing the map draws grows
  // with them (the same rule as the report's map, report/mapframe.go): it
  // shows a window of at most WINDOW metres either side of the robot (or,
  // without a pose, of the median of what was seen), pins what lies beyond
  // to its edge and lists it with its coordinates, and draws a grid of
  // 1, 2 or 5 × 10^k metres with at most MAX_GRID lines per axis.
  const WINDOW = 50;
  const MAX_GRID = 20;

  function gridStep(span) {
    const need = span / (MAX_GRID - 1);
    if (!(need > 1)) return 1;
    if (!Number.isFinite(need)) return Number.MAX_VALUE;
    const p = Math.pow(10, Math.floor(Math.log10(need)));
    for (const m of [1, 2, 5, 10]) if (m * p >= need) return m * p;
    return 10 * p;
  }

  // gridLines are the multiples of step in [lo, hi], at most MAX_GRID,
  // counted by index: at 1e17 m adding a step changes nothing.
  function gridLines(lo, hi, step) {
    const first = Math.ceil(lo / step) * step;
    const n = Math.min(Math.floor((hi - first) / step) + 1, MAX_GRID);
    const out = [];
    for (let i = 0; i < n; i++) {
      const v = first + i * step;
      if (v > hi || !Number.isFinite(v)) break;
      if (!out.length || out[out.length - 1] !== v) out.push(v);
    }
    return out;
  }

  const median = (vs) => [...vs].sort((a, b) => a - b)[Math.floor(vs.length / 2)];

  // ---- drawing -----------------------------------------------------------------

  // map draws w; opts: sectors (the spec's), staleAfter (turns), reach (how
  // far a wedge may reach, metres). An empty world draws a hint.
  function map(w, opts) {
    const o = opts || {};
    const staleAfter = o.staleAfter || 0;
    const pts = [];
    if (w.pose) pts.push([w.pose.x, w.pose.y]);
    for (const v of w.objects.values()) pts.push([v.x, v.y]);
    for (const v of w.places.values()) pts.push([v.x, v.y]);
    if (!pts.length) return null;
    const reach = o.reach || 1.5;
    const anchor = w.pose ? pts[0] : [median(pts.map((p) => p[0])), median(pts.map((p) => p[1]))];
    let [minX, minY, maxX, maxY] = [anchor[0], anchor[1], anchor[0], anchor[1]];
    for (const [x, y] of pts) {
      if (Math.abs(x - anchor[0]) > WINDOW || Math.abs(y - anchor[1]) > WINDOW) continue;
      minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
    }
    const margin = reach + 0.2;
    minX -= margin; maxX += margin; minY -= margin; maxY += margin;
    const span = Math.max(maxX - minX, maxY - minY, 3);
    const k = (SIZE - 2 * PAD) / span;
    const step = gridStep(span);
    const height = Math.round((maxY - minY) * k + 2 * PAD);
    const X = (x) => r2(PAD + (x - minX) * k);
    const Y = (y) => r2(PAD + (maxY - y) * k);
    const inside = (x, y) => x >= minX && x <= maxX && y >= minY && y <= maxY;
    const pin = (x, y) => [Math.min(Math.max(x, minX), maxX), Math.min(Math.max(y, minY), maxY)];
    const outside = [];
    // where a thing is drawn: where it is, or pinned to the edge (and listed).
    const place = (v) => {
      if (inside(v.x, v.y)) return { at: [X(v.x), Y(v.y)], out: false };
      outside.push(v.name + ' at (' + r2(v.x) + ', ' + r2(v.y) + ')');
      const [px, py] = pin(v.x, v.y);
      return { at: [X(px), Y(py)], out: true };
    };
    // a name beside its mark; pinned to the right edge, it reads leftwards.
    const label = (v, tx, ty, x) => (v.x > maxX
      ? s('text', { x: r2(2 * x - tx), y: r2(ty), 'text-anchor': 'end' }, v.name)
      : s('text', { x: r2(tx), y: r2(ty) }, v.name));
    const root = s('svg', { viewBox: '0 0 ' + SIZE + ' ' + height, width: SIZE, height, class: 'map', role: 'img',
      'data-scale': r2(k), 'data-grid-step': step });
    const grid = s('g', { class: 'grid' });
    for (const gx of gridLines(minX, maxX, step)) grid.append(s('line', { x1: X(gx), x2: X(gx), y1: Y(minY), y2: Y(maxY) }));
    for (const gy of gridLines(minY, maxY, step)) grid.append(s('line', { x1: X(minX), x2: X(maxX), y1: Y(gy), y2: Y(gy) }));
    root.append(grid);
    const words = [];
    if (w.pose) {
      const { x, y, theta } = w.pose;
      const secs = o.sectors && o.sectors.length ? o.sectors : Object.keys(w.clearance || {}).map((name) => ({ name }));
      const wedges = s('g', { class: 'wedges' });
      const c = w.clearance || {};
      const named = secs.filter((sec) => num(c[sec.name]));
      named.forEach((sec, i) => {
        const d = c[sec.name];
        const mid = ((theta + sectorAngle(sec, i, named.length)) * Math.PI) / 180;
        const half = Math.PI / Math.max(named.length, 2);
        const rad = Math.max(Math.min(d, reach), 0) * k;
        const p = (a) => [r2(X(x) + rad * Math.cos(a)), r2(Y(y) - rad * Math.sin(a))];
        const [ax, ay] = p(mid - half);
        const [bx, by] = p(mid + half);
        wedges.append(s('path', { d: `M${X(x)},${Y(y)} L${ax},${ay} A${r2(rad)},${r2(rad)} 0 0 0 ${bx},${by} Z`,
          fill: shade(d), 'data-sector': sec.name, 'data-distance': d }, s('title', {}, sec.name + ': nearest return ' + d + ' m')));
        words.push(sec.name + ' ' + d + ' m');
      });
      root.append(wedges);
      const a = (theta * Math.PI) / 180;
      const body = 0.18 * k;
      const nose = [r2(X(x) + 2.2 * body * Math.cos(a)), r2(Y(y) - 2.2 * body * Math.sin(a))];
      root.append(s('g', { class: 'robot', 'data-ref': 'robot', 'data-x': x, 'data-y': y, 'data-theta': theta },
        s('title', {}, 'the robot at (' + r2(x) + ', ' + r2(y) + '), heading ' + r2(theta) + '°'),
        s('circle', { cx: X(x), cy: Y(y), r: r2(Math.max(body, 5)) }),
        s('line', { x1: X(x), y1: Y(y), x2: nose[0], y2: nose[1] })));
    }
    for (const p of w.places.values()) {
      const stale = staleAfter > 0 && w.turn - p.turn >= staleAfter;
      const { at: [px, py], out } = place(p);
      root.append(s('g', { class: 'place' + (stale ? ' stale' : '') + (out ? ' outside' : ''), 'data-place': p.name, 'data-x': p.x, 'data-y': p.y },
        s('title', {}, p.name + ' at (' + r2(p.x) + ', ' + r2(p.y) + ')' + (out ? ', outside the map' : '')),
        s('rect', { x: r2(px - 9), y: r2(py - 9), width: 18, height: 18, rx: 3 }),
        label(p, px + 12, py + 14, px)));
    }
    for (const v of w.objects.values()) {
      const stale = staleAfter > 0 && w.turn - v.turn >= staleAfter;
      const { at: [vx, vy], out } = place(v);
      root.append(s('g', { class: 'object' + (stale ? ' stale' : '') + (out ? ' outside' : ''), 'data-object': v.name, 'data-x': v.x, 'data-y': v.y },
        s('title', {}, v.name + (out ? ' at (' + r2(v.x) + ', ' + r2(v.y) + '), outside the map' : '') +
          (stale ? ' (stale: last seen turn ' + v.turn + ')' : ' (seen turn ' + v.turn + ')')),
        s('circle', { cx: vx, cy: vy, r: 5 }),
        label(v, vx + 7, vy - 6, vx)));
    }
    root.append(s('g', { class: 'scale' }, s('line', { x1: PAD, x2: r2(PAD + step * k), y1: height - 6, y2: height - 6 }),
      s('text', { x: r2(PAD + step * k + 4), y: height - 2 }, step + ' m')));
    const stale = [...w.objects.values()].filter((v) => staleAfter > 0 && w.turn - v.turn >= staleAfter).length;
    root.setAttribute('aria-label', 'Map at turn ' + w.turn + ': ' + (w.pose ? 'the robot at (' + r2(w.pose.x) + ', ' + r2(w.pose.y) + ') heading ' +
      r2(w.pose.theta) + '°; ' : '') + w.objects.size + ' object(s)' + (stale ? ', ' + stale + ' stale' : '') +
      (outside.length ? ', ' + outside.length + ' outside the map (' + outside.join('; ') + ')' : '') +
      (words.length ? '; clearance ' + words.join(', ') : ''));
    if (outside.length) root.dataset.outside = outside.join('; ');
    return root;
  }

  // outsideNote is the visible list of what a map pinned to its edge, or
  // null.
  function outsideNote(svg) {
    if (!svg || !svg.dataset.outside) return null;
    const p = document.createElement('p');
    p.className = 'hint map-outside';
    p.textContent = 'Outside the map: ' + svg.dataset.outside;
    return p;
  }

  // ---- the viewer ----------------------------------------------------------------

  // The viewer is a dialog over the page: a frame at its full size, or a
  // turn's frames and its map. Escape or Close closes it (and Escape then
  // does not also stop the task).
  function viewer(el) {
    const box = document.getElementById('viewer');
    const body = document.getElementById('viewer-body');
    let back = null;
    const close = () => {
      box.hidden = true;
      body.replaceChildren();
      if (back && back.focus) back.focus();
    };
    document.getElementById('viewer-close').addEventListener('click', close);
    box.addEventListener('click', (e) => { if (e.target === box) close(); });
    document.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && !box.hidden) { e.preventDefault(); e.stopPropagation(); close(); }
    }, true);
    const figure = (f, full) => el('figure', { class: full ? 'full' : '' },
      el('img', { src: f.url, alt: f.camera + ' camera, turn ' + f.turn, width: full ? null : f.width, height: full ? null : f.height }),
      el('figcaption', {}, f.camera + ' · turn ' + f.turn + (f.width ? ' · ' + f.width + '×' + f.height : '')));
    function show(title, nodes) {
      back = document.activeElement;
      document.getElementById('viewer-h').textContent = title;
      body.replaceChildren(...nodes);
      box.hidden = false;
      document.getElementById('viewer-close').focus();
    }
    return {
      frame(f) { show(f.camera + ' camera, turn ' + f.turn + ', full size', [figure(f, true)]); },
      turn(turn, frames, picture) {
        const nodes = [];
        if (frames.length) {
          const list = el('div', { class: 'frames' });
          for (const f of frames) {
            const fig = figure(f, false);
            fig.querySelector('img').addEventListener('click', () => show(f.camera + ' camera, turn ' + f.turn + ', full size', [figure(f, true)]));
            list.append(fig);
          }
          nodes.push(list);
        } else nodes.push(el('p', { class: 'hint' }, 'No camera frame in this turn.'));
        if (picture) nodes.push(...[picture, outsideNote(picture)].filter(Boolean));
        show('Turn ' + turn, nodes);
      },
    };
  }

  return { newWorld, observe, copy, map, outsideNote, viewer, sectorAngle, gridStep };
})();
