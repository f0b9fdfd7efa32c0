// The live page: renders /state.json snapshots sent over Server-Sent Events as an SVG board.
// EventSource reconnects by itself and sends Last-Event-ID, so the server replays what was missed.
'use strict';
(function () {
  const SVGNS = 'http://www.w3.org/2000/svg';
  const referee = location.pathname.startsWith('/referee');
  const token = new URLSearchParams(location.search).get('token') || '';
  const $ = (id) => document.getElementById(id);
  const live = (window.kifucam = { connected: false, states: 0, moves: 0, flags: 0, ply: 0 });

  function el(name, attrs, text) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function clock(ms) {
    if (ms === null || ms === undefined) return '';
    const s = Math.max(0, Math.floor(ms / 1000));
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    return (h ? h + ':' + String(m).padStart(2, '0') : String(m)) + ':' + String(r).padStart(2, '0');
  }

  // ---- Go -------------------------------------------------------------------------------------
  const GO_LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';
  function hoshi(n) {
    if (n === 19) return [3, 9, 15];
    if (n === 13) return [3, 6, 9];
    if (n === 9) return [2, 4, 6];
    return [];
  }
  function drawGo(svg, st) {
    const w = st.width, h = st.height, c = 100, m = 90;
    svg.setAttribute('viewBox', `0 0 ${2 * m + (w - 1) * c} ${2 * m + (h - 1) * c}`);
    svg.appendChild(el('rect', { x: 0, y: 0, width: 2 * m + (w - 1) * c, height: 2 * m + (h - 1) * c,
      fill: '#dcb35c', rx: 12 }));
    for (let i = 0; i < w; i++) {
      svg.appendChild(el('line', { x1: m + i * c, y1: m, x2: m + i * c, y2: m + (h - 1) * c,
        stroke: '#1b1405', 'stroke-width': i === 0 || i === w - 1 ? 5 : 2.5 }));
      const lab = { x: m + i * c, 'text-anchor': 'middle', 'font-size': 38, fill: '#3b2a0a' };
      svg.appendChild(el('text', Object.assign({ y: m - 48 }, lab), GO_LETTERS[i]));
      svg.appendChild(el('text', Object.assign({ y: m + (h - 1) * c + 70 }, lab), GO_LETTERS[i]));
    }
    for (let j = 0; j < h; j++) {
      svg.appendChild(el('line', { x1: m, y1: m + j * c, x2: m + (w - 1) * c, y2: m + j * c,
        stroke: '#1b1405', 'stroke-width': j === 0 || j === h - 1 ? 5 : 2.5 }));
      const lab = { y: m + j * c + 13, 'text-anchor': 'middle', 'font-size': 38, fill: '#3b2a0a' };
      svg.appendChild(el('text', Object.assign({ x: m - 55 }, lab), String(h - j)));
      svg.appendChild(el('text', Object.assign({ x: m + (w - 1) * c + 55 }, lab), String(h - j)));
    }
    if (w === h) {
      for (const x of hoshi(w)) for (const y of hoshi(h)) {
        if (w === 9 && (x === 4) !== (y === 4)) continue;
        svg.appendChild(el('circle', { cx: m + x * c, cy: m + y * c, r: 11, fill: '#1b1405' }));
      }
    }
    const board = st.board || '';
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
      const v = board[y * w + x];
      if (v !== 'X' && v !== 'O') continue;
      svg.appendChild(el('circle', { cx: m + x * c, cy: m + y * c, r: 47,
        fill: v === 'X' ? '#111' : '#f7f7f2', stroke: v === 'X' ? '#000' : '#777',
        'stroke-width': 3, class: v === 'X' ? 'stone black' : 'stone white' }));
    }
    if (st.last) {
      const [x, y] = st.last, v = board[y * w + x];
      svg.appendChild(el('circle', { cx: m + x * c, cy: m + y * c, r: 20, fill: 'none',
        stroke: v === 'X' ? '#fff' : '#e0463c', 'stroke-width': 9, class: 'last' }));
    }
  }

  // ---- shogi ----------------------------------------------------------------------------------
  const KANJI = { P: '歩', L: '香', N: '桂', S: '銀', G: '金', B: '角', R: '飛', K: '玉' };
  const PROMOTED = { P: 'と', L: '杏', N: '圭', S: '全', B: '馬', R: '龍' };
  const RANKS = '一二三四五六七八九';
  function parseSfen(sfen) {
    const [boardPart, side, hands] = (sfen || '').split(' ');
    const rows = (boardPart || '').split('/');
    const sq = [];
    for (const row of rows) {
      const line = [];
      let promoted = false;
      for (const ch of row) {
        if (ch === '+') { promoted = true; continue; }
        if (ch >= '1' && ch <= '9') { for (let i = 0; i < +ch; i++) line.push(null); continue; }
        line.push({ t: ch.toUpperCase(), gote: ch === ch.toLowerCase(), p: promoted });
        promoted = false;
      }
      sq.push(line);
    }
    const hand = { sente: [], gote: [] };
    if (hands && hands !== '-') {
      let n = '';
      for (const ch of hands) {
        if (ch >= '0' && ch <= '9') { n += ch; continue; }
        const who = ch === ch.toUpperCase() ? 'sente' : 'gote';
        hand[who].push(KANJI[ch.toUpperCase()] + (n && +n > 1 ? n : ''));
        n = '';
      }
    }
    return { sq, side, hand };
  }
  function drawShogi(svg, st) {
    const c = 100, m = 70, n = 9;
    svg.setAttribute('viewBox', `0 0 ${2 * m + n * c} ${2 * m + n * c}`);
    svg.appendChild(el('rect', { x: 0, y: 0, width: 2 * m + n * c, height: 2 * m + n * c,
      fill: '#e8c77e', rx: 12 }));
    const pos = parseSfen(st.sfen);
    if (st.last) {
      const [x, y] = st.last;
      svg.appendChild(el('rect', { x: m + x * c, y: m + y * c, width: c, height: c,
        fill: '#f4a259', class: 'last' }));
    }
    for (let i = 0; i <= n; i++) {
      const wdt = i === 0 || i === n ? 5 : 2.5;
      svg.appendChild(el('line', { x1: m + i * c, y1: m, x2: m + i * c, y2: m + n * c,
        stroke: '#2b1d05', 'stroke-width': wdt }));
      svg.appendChild(el('line', { x1: m, y1: m + i * c, x2: m + n * c, y2: m + i * c,
        stroke: '#2b1d05', 'stroke-width': wdt }));
    }
    for (let i = 0; i < n; i++) {
      svg.appendChild(el('text', { x: m + i * c + c / 2, y: m - 20, 'text-anchor': 'middle',
        'font-size': 36, fill: '#3b2a0a' }, String(9 - i)));
      svg.appendChild(el('text', { x: m + n * c + 35, y: m + i * c + c / 2 + 12,
        'text-anchor': 'middle', 'font-size': 34, fill: '#3b2a0a' }, RANKS[i]));
    }
    for (const [x, y] of [[3, 3], [6, 3], [3, 6], [6, 6]])
      svg.appendChild(el('circle', { cx: m + x * c, cy: m + y * c, r: 7, fill: '#2b1d05' }));
    pos.sq.forEach((row, y) => row.forEach((p, x) => {
      if (!p) return;
      const cx = m + x * c + c / 2, cy = m + y * c + c / 2;
      const g = el('g', { transform: `rotate(${p.gote ? 180 : 0} ${cx} ${cy})`,
        class: p.gote ? 'piece gote' : 'piece sente' });
      g.appendChild(el('path', { d: `M${cx} ${cy - 44} L${cx + 32} ${cy - 30} L${cx + 40} ${cy + 44} ` +
        `L${cx - 40} ${cy + 44} L${cx - 32} ${cy - 30} Z`, fill: '#f6e2b3', stroke: '#5a4210',
        'stroke-width': 2.5 }));
      let k = p.p ? PROMOTED[p.t] : KANJI[p.t];
      if (p.t === 'K' && p.gote) k = '王';
      g.appendChild(el('text', { x: cx, y: cy + 22, 'text-anchor': 'middle', 'font-size': 58,
        'font-weight': 700, fill: p.p ? '#b3261e' : '#1a1a1a' }, k));
      svg.appendChild(g);
    }));
    return pos;
  }

  // ---- the side panel ---------------------------------------------------------------------------
  function render(st) {
    live.states++;
    live.ply = st.ply;
    document.body.dataset.ply = st.ply;
    document.body.dataset.states = live.states; // the browser test reads these
    const svg = $('board');
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const go = st.game !== 'shogi';
    let pos = null;
    if (go) drawGo(svg, st); else pos = drawShogi(svg, st);
    $('event').textContent = st.event || 'kifucam';
    $('board-name').textContent = st.board_name || '';
    for (const side of ['black', 'white']) {
      const p = st[side] || {}, box = $('p-' + side);
      box.classList.toggle('shogi', !go);
      box.classList.toggle('to-move', st.to_move === side);
      box.querySelector('.swatch').textContent = go ? '' : side === 'black' ? '☗' : '☖';
      box.querySelector('.name').textContent = p.name || (go ? side : side === 'black' ? 'sente' : 'gote');
      box.querySelector('.clock').textContent = clock(p.clock_ms);
      let extra = '';
      if (go) extra = 'captures ' + (p.prisoners || 0);
      else if (pos) extra = '持駒 ' + (pos.hand[side === 'black' ? 'sente' : 'gote'].join(' ') || 'なし');
      box.querySelector('.extra').textContent = extra;
    }
    $('status').textContent = st.status || '';
    $('result').textContent = st.result || '';
    $('ply').textContent = st.ply ? '(' + st.ply + ')' : '';
    const ol = $('moves');
    ol.textContent = '';
    (st.moves || []).forEach((mv, i, all) => {
      const li = document.createElement('li');
      li.textContent = mv;
      if (i === all.length - 1) li.className = 'last';
      ol.appendChild(li);
    });
    ol.scrollTop = ol.scrollHeight;
    $('dl-kif').hidden = $('dl-csa').hidden = go;
    $('dl-sgf').hidden = !go;
  }

  const seenFlags = new Set();
  function addFlag(f) {
    if (seenFlags.has(f.seq)) return;
    seenFlags.add(f.seq);
    live.flags++;
    const li = document.createElement('li');
    const k = document.createElement('div');
    k.className = 'kind';
    k.textContent = `ply ${f.ply}: ${f.kind}` + (f.move ? ' ' + f.move : '');
    const t = document.createElement('div');
    t.textContent = f.text || '';
    const r = document.createElement('div');
    r.className = 'rule';
    r.textContent = f.rule || '';
    li.append(k, t, r);
    if (f.frame) {
      const img = document.createElement('img');
      img.alt = '';
      img.loading = 'lazy';
      img.src = `/referee/snapshot?token=${encodeURIComponent(token)}&seq=${f.seq}`;
      img.onerror = () => img.remove();
      li.appendChild(img);
    }
    $('flags').prepend(li);
    $('flag-count').textContent = String(seenFlags.size);
  }

  /* A move the guard accepted under doubt: not a flag, but the first the referee checks. */
  const seenChecks = new Set();
  function addCheck(m) {
    if (seenChecks.has(m.seq)) return;
    seenChecks.add(m.seq);
    const li = document.createElement('li');
    const k = document.createElement('div');
    k.className = 'kind';
    k.textContent = `ply ${m.ply}` + (m.move ? ': ' + m.move : '');
    const t = document.createElement('div');
    t.textContent = m.doubt;
    li.append(k, t);
    $('checks').prepend(li);
    $('check-count').textContent = String(seenChecks.size);
  }

  async function act(action) {
    const body = new URLSearchParams({ token, action, ply: String(live.ply),
      text: $('ref-text').value });
    try {
      const r = await fetch('/referee/action', { method: 'POST', body });
      const j = await r.json();
      $('ref-msg').textContent = (j.ok ? 'done: ' : 'refused: ') + j.message;
      if (j.ok) $('ref-text').value = '';
    } catch (e) {
      $('ref-msg').textContent = 'not sent: ' + e;
    }
  }

  if (referee) {
    $('referee').hidden = false;
    document.querySelectorAll('#referee button').forEach((b) =>
      b.addEventListener('click', () => act(b.dataset.action)));
  }

  const es = new EventSource(referee ? '/referee/events?token=' + encodeURIComponent(token) : '/events');
  const conn = $('conn');
  es.onopen = () => { live.connected = true; conn.textContent = 'live'; conn.className = 'conn on'; };
  es.onerror = () => { live.connected = false; conn.textContent = 'reconnecting'; conn.className = 'conn off'; };
  es.addEventListener('state', (e) => render(JSON.parse(e.data)));
  es.addEventListener('move', (e) => {
    live.moves++;
    const m = JSON.parse(e.data);
    if (m.flag && referee) addFlag(m);
    if (m.doubt && referee) addCheck(m);
  });
  es.addEventListener('flag', (e) => { if (referee) addFlag(JSON.parse(e.data)); });
  es.addEventListener('action', (e) => {
    const a = JSON.parse(e.data);
    if (referee) $('ref-msg').textContent = `ply ${a.ply}: ${a.action} ${a.text || ''}`;
  });
})();
