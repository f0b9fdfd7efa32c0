// The hall page: subscribes to kifucam/HALL/+/# on the broker's WebSocket listener and shows every
// board of the hall (topics and payloads in record/mqtt.h and docs/hall.md).
//
// Query parameters: ws=URL of the broker's WebSocket listener (default ws://<this host>:9001/),
// hall=NAME (default + = every hall), view=referee (shows the flags).
//
// The MQTT 3.1.1 client below is written for this page (no library): CONNECT with a clean
// session, SUBSCRIBE with a wildcard at QoS 1, PUBLISH received at QoS 0/1 (QoS 1 answered with
// PUBACK), PINGREQ every keepalive/2, and a reconnect with back-off when anything goes wrong.
// The public view uses a clean session: each board's state is retained, so a page that reconnects
// is brought up to date by the retained states it gets on subscribing. The referee desk must not
// miss a flag (flags are not retained), so it keeps a persistent session under a client id kept in
// localStorage: the broker queues the moves and flags published while the desk was away and
// sends them when it is back (redeliveries are dropped by their seq).
'use strict';
(function () {
  const params = new URLSearchParams(location.search);
  const referee = params.get('view') === 'referee';
  const hall = params.get('hall') || '+';
  const wsUrl = params.get('ws') || `ws://${location.hostname || '127.0.0.1'}:9001/`;
  const KEEPALIVE_S = 20;
  const MAX_PACKET = 1 << 20; // a state is at most 256 KiB (record/mqtt.c); anything far bigger is junk
  const $ = (id) => document.getElementById(id);
  const hallInfo = (window.kifucamHall = { connects: 0, connected: false, messages: 0, duplicates: 0 });

  // ---- MQTT 3.1.1 over WebSocket ---------------------------------------------------------------
  const enc = new TextEncoder();
  const dec = new TextDecoder();

  function mqttString(s) {
    const b = enc.encode(s);
    return [b.length >> 8, b.length & 255, ...b];
  }
  function packet(first, body) {
    const len = [];
    let n = body.length;
    do { // remaining length: 7 bits a byte, high bit = more follow
      let d = n & 127;
      n >>= 7;
      if (n > 0) d |= 128;
      len.push(d);
    } while (n > 0);
    return new Uint8Array([first, ...len, ...body]);
  }

  function clientId() {
    const fresh = 'kifucam-hall-' + Math.random().toString(36).slice(2, 12);
    if (!referee) return fresh;
    try { // one id per browser profile, so the desk finds its session again after a reload
      let id = localStorage.getItem('kifucam-hall-id');
      if (!id) localStorage.setItem('kifucam-hall-id', (id = fresh + '-desk'));
      return id;
    } catch (e) {
      return fresh + '-desk';
    }
  }

  class MqttClient {
    constructor(url, topicFilter, onMessage, onState) {
      this.url = url;
      this.filter = topicFilter;
      this.onMessage = onMessage;
      this.onState = onState;
      this.delay = 500;
      this.nextId = 1;
      this.open();
    }
    open() {
      this.buf = new Uint8Array(0);
      this.ready = false;
      this.pingOut = false;
      let ws;
      try {
        ws = new WebSocket(this.url, ['mqtt']);
      } catch (e) {
        this.retry();
        return;
      }
      this.ws = ws;
      ws.binaryType = 'arraybuffer';
      ws.onopen = () => {
        // A broker that takes the WebSocket but never answers CONNECT: try again.
        setTimeout(() => { if (this.ws === ws && !this.ready) ws.close(); }, 10000);
        const body = [...mqttString('MQTT'), 4, referee ? 0x00 : 0x02 /* clean session */,
          KEEPALIVE_S >> 8, KEEPALIVE_S & 255, ...mqttString(clientId())];
        this.send(packet(0x10, body));
      };
      ws.onmessage = (e) => this.received(new Uint8Array(e.data));
      ws.onerror = () => ws.close();
      ws.onclose = () => {
        if (this.ws !== ws) return;
        this.ws = null;
        clearInterval(this.pinger);
        this.ready = false;
        this.onState(false);
        this.retry();
      };
    }
    retry() {
      // Back-off from 0.5 s to 8 s; a successful CONNACK starts it again from 0.5 s.
      setTimeout(() => this.open(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    }
    send(bytes) {
      if (this.ws && this.ws.readyState === WebSocket.OPEN) this.ws.send(bytes);
    }
    drop() {
      if (this.ws) this.ws.close();
    }
    received(chunk) {
      // A WebSocket message may hold part of a packet or several: keep the rest for later.
      const all = new Uint8Array(this.buf.length + chunk.length);
      all.set(this.buf);
      all.set(chunk, this.buf.length);
      let off = 0;
      for (;;) {
        if (all.length - off < 2) break;
        let len = 0, mult = 1, i = off + 1, done = false;
        for (let k = 0; k < 4 && i < all.length; k++, i++) {
          len += (all[i] & 127) * mult;
          mult *= 128;
          if (!(all[i] & 128)) { done = true; i++; break; }
        }
        if (!done) {
          if (i - off - 1 >= 4) return this.drop(); // a length longer than 4 bytes is malformed
          break;
        }
        if (len > MAX_PACKET) return this.drop();
        if (all.length - i < len) break;
        this.handle(all[off], all.subarray(i, i + len));
        off = i + len;
      }
      this.buf = all.slice(off);
      if (this.buf.length > MAX_PACKET + 5) this.drop();
    }
    handle(first, body) {
      const type = first >> 4;
      if (type === 2) { // CONNACK
        if (body.length < 2 || body[1] !== 0) return this.drop();
        this.ready = true;
        this.delay = 500;
        const id = this.nextId++ & 0xffff || 1;
        this.send(packet(0x82, [id >> 8, id & 255, ...mqttString(this.filter), 1]));
        this.pinger = setInterval(() => this.ping(), (KEEPALIVE_S * 1000) / 2);
        this.onState(true);
      } else if (type === 3) { // PUBLISH
        const qos = (first >> 1) & 3;
        if (body.length < 2) return this.drop();
        const tlen = (body[0] << 8) | body[1];
        let p = 2 + tlen;
        if (p > body.length) return this.drop();
        const topic = dec.decode(body.subarray(2, p));
        if (qos === 1) {
          if (p + 2 > body.length) return this.drop();
          this.send(packet(0x40, [body[p], body[p + 1]])); // PUBACK with its packet id
          p += 2;
        } else if (qos !== 0) {
          return this.drop(); // we subscribe at QoS 1, so the broker never sends QoS 2
        }
        this.onMessage(topic, dec.decode(body.subarray(p)), (first & 1) === 1);
      } else if (type === 9) { // SUBACK
        if (body.length >= 3 && body[2] === 0x80) console.warn('hall: subscription refused');
      } else if (type === 13) { // PINGRESP
        this.pingOut = false;
      }
    }
    ping() {
      // The broker answers each PINGREQ; no answer by the next one means the link is dead (a
      // half-open TCP connection after a network cut), and only closing it brings a reconnect.
      if (this.pingOut) return this.drop();
      this.pingOut = true;
      this.send(new Uint8Array([0xc0, 0]));
    }
  }

  // ---- the boards -------------------------------------------------------------------------------
  const boards = new Map(); // "hall/board" -> {hall, name, state, move, seq, flags, online, action}

  function board(h, b) {
    const key = h + '/' + b;
    let x = boards.get(key);
    if (!x) {
      x = { hall: h, name: b, state: null, move: null, seq: 0, flags: [], flagSeqs: new Set(),
        online: null, action: null, el: null };
      boards.set(key, x);
    }
    return x;
  }

  function onMessage(topic, payload) {
    hallInfo.messages++;
    const t = topic.split('/');
    if (t.length !== 4 || t[0] !== 'kifucam') return;
    const b = board(t[1], t[2]);
    let js = null;
    if (t[3] !== 'online') {
      try {
        js = JSON.parse(payload);
      } catch (e) {
        return;
      }
      if (!js || typeof js !== 'object') return;
    }
    switch (t[3]) {
      case 'state':
        b.state = js;
        break;
      case 'move': // QoS 1 is at least once: a seq seen before is a redelivery
        if (typeof js.seq !== 'number' || js.seq <= b.seq) { hallInfo.duplicates++; return; }
        b.seq = js.seq;
        b.move = js;
        break;
      case 'flag':
        if (b.flagSeqs.has(js.seq)) { hallInfo.duplicates++; return; }
        b.flagSeqs.add(js.seq);
        b.flags.push(js);
        if (b.flags.length > 4) b.flags.shift();
        break;
      case 'action':
        b.action = js;
        break;
      case 'online':
        b.online = payload === '1';
        break;
      default:
        return;
    }
    render(b);
  }

  // ---- drawing ----------------------------------------------------------------------------------
  const SVGNS = 'http://www.w3.org/2000/svg';
  function el(name, attrs, text) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function h(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function drawGo(svg, st) {
    const w = st.width, hh = st.height, c = 10, m = 8;
    svg.setAttribute('viewBox', `0 0 ${2 * m + (w - 1) * c} ${2 * m + (hh - 1) * c}`);
    svg.appendChild(el('rect', { width: 2 * m + (w - 1) * c, height: 2 * m + (hh - 1) * c,
      fill: '#dcb35c' }));
    for (let i = 0; i < w; i++)
      svg.appendChild(el('line', { x1: m + i * c, y1: m, x2: m + i * c, y2: m + (hh - 1) * c,
        stroke: '#1b1405', 'stroke-width': 0.4 }));
    for (let j = 0; j < hh; j++)
      svg.appendChild(el('line', { x1: m, y1: m + j * c, x2: m + (w - 1) * c, y2: m + j * c,
        stroke: '#1b1405', 'stroke-width': 0.4 }));
    const bd = st.board || '';
    for (let y = 0; y < hh; y++) for (let x = 0; x < w; x++) {
      const v = bd[y * w + x];
      if (v !== 'X' && v !== 'O') continue;
      svg.appendChild(el('circle', { cx: m + x * c, cy: m + y * c, r: 4.7,
        fill: v === 'X' ? '#111' : '#f7f7f2', stroke: '#333', 'stroke-width': 0.4,
        class: 'stone' }));
    }
    if (st.last) {
      const [x, y] = st.last;
      svg.appendChild(el('circle', { cx: m + x * c, cy: m + y * c, r: 2.2, fill: '#e53935',
        class: 'lastmark' }));
    }
  }

  const KANJI = { P: '歩', L: '香', N: '桂', S: '銀', G: '金', B: '角', R: '飛', K: '玉' };
  const PROMOTED = { P: 'と', L: '杏', N: '圭', S: '全', B: '馬', R: '龍' };
  function drawShogi(svg, st) {
    const c = 10, m = 3, n = 9;
    svg.setAttribute('viewBox', `0 0 ${2 * m + n * c} ${2 * m + n * c}`);
    svg.appendChild(el('rect', { width: 2 * m + n * c, height: 2 * m + n * c, fill: '#e8c77e' }));
    if (st.last) {
      const [x, y] = st.last;
      svg.appendChild(el('rect', { x: m + x * c, y: m + y * c, width: c, height: c,
        fill: '#f4a259', class: 'lastmark' }));
    }
    for (let i = 0; i <= n; i++) {
      svg.appendChild(el('line', { x1: m + i * c, y1: m, x2: m + i * c, y2: m + n * c,
        stroke: '#2b1d05', 'stroke-width': 0.3 }));
      svg.appendChild(el('line', { x1: m, y1: m + i * c, x2: m + n * c, y2: m + i * c,
        stroke: '#2b1d05', 'stroke-width': 0.3 }));
    }
    const rows = ((st.sfen || '').split(' ')[0] || '').split('/');
    rows.forEach((row, y) => {
      let x = 0, promoted = false;
      for (const ch of row) {
        if (ch === '+') { promoted = true; continue; }
        if (ch >= '1' && ch <= '9') { x += +ch; continue; }
        const t = ch.toUpperCase(), gote = ch !== t;
        const cx = m + x * c + c / 2, cy = m + y * c + c / 2;
        svg.appendChild(el('text', { x: cx, y: cy + 3, 'text-anchor': 'middle', 'font-size': 7.5,
          fill: promoted ? '#b71c1c' : '#111', class: 'piece',
          transform: gote ? `rotate(180 ${cx} ${cy})` : '' },
          (promoted ? PROMOTED[t] : KANJI[t]) || '?'));
        promoted = false;
        x++;
      }
    });
  }

  function render(b) {
    if (!b.el) {
      b.el = h('section', 'card');
      b.el.dataset.board = b.name;
      b.el.dataset.hall = b.hall;
      // Cards in name order, so a board keeps its place on the display.
      const key = b.hall + '/' + b.name;
      const after = [...$('boards').children].find((c) => c.dataset.hall + '/' + c.dataset.board > key);
      $('boards').insertBefore(b.el, after || null);
      $('empty').hidden = true;
      document.body.dataset.boards = boards.size;
    }
    const st = b.state || {};
    const moves = Array.isArray(st.moves) ? st.moves : [];
    let ply = typeof st.ply === 'number' ? st.ply : 0;
    let last = moves.length ? moves[moves.length - 1] : '';
    // A move can arrive before the state that follows it.
    if (b.move && typeof b.move.ply === 'number' && b.move.ply > ply) {
      ply = b.move.ply;
      last = b.move.move || b.move.kind || '';
    }
    const card = b.el;
    card.replaceChildren();
    card.className = 'card' + (b.online === false ? ' offline' : '') +
      (st.result ? ' ended' : '') + (referee && b.flags.length ? ' flagged' : '');
    card.dataset.ply = ply;
    card.dataset.last = last;
    card.dataset.result = st.result || '';
    card.dataset.flags = b.flags.length;
    const title = h('h2', '', st.board_name || b.name);
    if (hall === '+') title.appendChild(h('span', 'hallname', b.hall));
    else title.appendChild(h('span', 'hallname', b.name));
    card.appendChild(title);
    const svg = el('svg', { class: 'diagram' });
    const size = (n) => Number.isInteger(n) && n >= 2 && n <= 25; // the payload is not trusted
    if (st.game === 'go' && size(st.width) && size(st.height)) drawGo(svg, st);
    else if (st.game === 'shogi') drawShogi(svg, st);
    card.appendChild(svg);
    const pl = h('div', 'players');
    pl.appendChild(h('span', 'black', (st.black && st.black.name) || '?'));
    pl.appendChild(h('span', 'white', (st.white && st.white.name) || '?'));
    card.appendChild(pl);
    const info = h('div', 'info');
    info.appendChild(h('span', 'ply', 'move ' + ply));
    info.appendChild(h('span', 'last', last));
    card.appendChild(info);
    if (st.result) card.appendChild(h('div', 'result', 'Result: ' + st.result));
    const status = [b.online === false ? 'daemon offline' : '', st.status || ''].filter(Boolean);
    if (status.length) card.appendChild(h('div', 'status', status.join(' · ')));
    if (referee && b.flags.length) {
      const ul = h('ul', 'flags');
      for (const f of b.flags)
        ul.appendChild(h('li', '', `${f.kind} at move ${f.ply}` + (f.text ? ': ' + f.text : '')));
      card.appendChild(ul);
    }
  }

  function onState(up) {
    hallInfo.connected = up;
    if (up) hallInfo.connects++;
    document.body.dataset.connects = hallInfo.connects;
    document.body.dataset.connected = up ? '1' : '0';
    const c = $('conn');
    c.className = 'conn ' + (up ? 'up' : 'down');
    c.textContent = up ? 'live' : 'reconnecting…';
  }

  $('title').textContent = hall === '+' ? 'kifucam — all halls' : 'kifucam — ' + hall +
    (referee ? ' (referee desk)' : '');
  document.body.dataset.connects = 0;
  new MqttClient(wsUrl, `kifucam/${hall}/+/#`, onMessage, onState);
})();
