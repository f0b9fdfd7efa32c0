#!/usr/bin/env python3
"""tests/live/cdp.py PROFILE_DIR dom|shot FILE — asks a running headless Chromium (started with
--remote-debugging-port=0 --user-data-dir=PROFILE_DIR) over the DevTools protocol for its page's
DOM as it is now, or a PNG screenshot, and writes it to FILE ("-" = stdout for dom).

--dump-dom dumps when the page has loaded, before a page that lives on a WebSocket has received
anything, and virtual time does not wait for WebSockets; asking the open page at chosen moments
does. Python's standard library only: a minimal WebSocket client (RFC 6455) is enough for the
few request/response messages used here."""
import base64
import json
import os
import socket
import struct
import sys
import time
import urllib.request


def ws_connect(url):
    assert url.startswith('ws://')
    hostport, path = url[5:].split('/', 1)
    host, port = hostport.rsplit(':', 1)
    s = socket.create_connection((host, int(port)), 10)
    key = base64.b64encode(os.urandom(16)).decode()
    s.sendall(('GET /%s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n'
               'Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n'
               % (path, hostport, key)).encode())
    head = b''
    while b'\r\n\r\n' not in head:
        chunk = s.recv(1)
        if not chunk:
            raise OSError('DevTools closed the connection during the handshake')
        head += chunk
    if b' 101 ' not in head.split(b'\r\n', 1)[0]:
        raise OSError('DevTools refused the WebSocket: %r' % head[:200])
    return s


def ws_send(s, text):
    data = text.encode()
    mask = os.urandom(4)
    n = len(data)
    if n < 126:
        hdr = struct.pack('!BB', 0x81, 0x80 | n)
    elif n < 65536:
        hdr = struct.pack('!BBH', 0x81, 0x80 | 126, n)
    else:
        hdr = struct.pack('!BBQ', 0x81, 0x80 | 127, n)
    s.sendall(hdr + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


def recv_exact(s, n):
    buf = b''
    while len(buf) < n:
        chunk = s.recv(n - len(buf))
        if not chunk:
            raise OSError('DevTools closed the connection')
        buf += chunk
    return buf


def ws_recv(s):
    """One whole message (fragments joined)."""
    msg = b''
    while True:
        b0, b1 = recv_exact(s, 2)
        n = b1 & 127
        if n == 126:
            n = struct.unpack('!H', recv_exact(s, 2))[0]
        elif n == 127:
            n = struct.unpack('!Q', recv_exact(s, 8))[0]
        if b1 & 128:
            recv_exact(s, 4)  # servers do not mask, but skip a mask if one is there
        payload = recv_exact(s, n)
        if b0 & 0x0f == 8:
            raise OSError('DevTools closed the WebSocket')
        if b0 & 0x0f in (9, 10):
            continue  # ping/pong: not ours to answer for so short a session
        msg += payload
        if b0 & 0x80:
            return msg.decode()


def call(s, ident, method, params):
    ws_send(s, json.dumps({'id': ident, 'method': method, 'params': params}))
    while True:
        m = json.loads(ws_recv(s))
        if m.get('id') == ident:
            if 'error' in m:
                raise OSError('%s: %s' % (method, m['error']))
            return m['result']


def page_socket(profile):
    port_file = os.path.join(profile, 'DevToolsActivePort')
    for _ in range(200):  # Chromium writes it once it listens
        if os.path.exists(port_file) and os.path.getsize(port_file) > 0:
            break
        time.sleep(0.05)
    port = int(open(port_file).read().split('\n')[0])
    with urllib.request.urlopen('http://127.0.0.1:%d/json/list' % port, timeout=10) as r:
        targets = json.load(r)
    page = next(t for t in targets if t.get('type') == 'page')
    return ws_connect(page['webSocketDebuggerUrl'])


def main():
    profile, what, out = sys.argv[1:4]
    s = page_socket(profile)
    if what == 'dom':
        r = call(s, 1, 'Runtime.evaluate',
                 {'expression': 'document.documentElement.outerHTML', 'returnByValue': True})
        text = r['result']['value']
        if out == '-':
            sys.stdout.write(text + '\n')
        else:
            with open(out, 'w') as f:
                f.write(text)
    elif what == 'shot':
        r = call(s, 1, 'Page.captureScreenshot', {'format': 'png'})
        with open(out, 'wb') as f:
            f.write(base64.b64decode(r['data']))
    else:
        sys.exit('cdp.py: dom or shot')
    s.close()


if __name__ == '__main__':
    main()
