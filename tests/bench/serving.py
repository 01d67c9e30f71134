# -*- coding: utf-8 -*-
# Copyright: nms.overlay contributors
# GNU General Public License v3.0+ (see LICENSE or https://www.gnu.org/licenses/gpl-3.0.txt)
"""How fast the emulator serves a list, next to a static file server serving the same bytes.

The benchmark's figures at large sizes should measure the collection, not the emulator: ``list_speed`` gives the
emulator's requests per second on one list, a plain static server's on the same JSON bytes, and their ratio.

    python -m tests.bench.serving URL TOKEN [--path /api/peers] [--seconds 3]
"""

from __future__ import annotations

import argparse
import functools
import http.client
import http.server
import json
import os
import shutil
import ssl
import statistics
import subprocess
import sys
import tempfile
import time
from urllib.parse import urlsplit

ROUNDS = 3  # each server is measured this many times, alternately, and the medians are kept
STATIC_NAME = 'list.json'
START_TIMEOUT = 30.0


class StaticHandler(http.server.SimpleHTTPRequestHandler):
    """The standard library's file server, speaking HTTP/1.1 keep-alive (every answer has a Content-Length), with
    TCP_NODELAY as the emulator (headers and body are separate writes: without it a kept-alive connection waits for
    a delayed ACK), and quiet."""

    protocol_version = 'HTTP/1.1'
    disable_nagle_algorithm = True
    extensions_map = {'.json': 'application/json'}

    def log_message(self, format, *args):  # pylint: disable=redefined-builtin
        pass


def serve_static(directory):
    """Serve ``directory`` on 127.0.0.1 (a free port, printed as ``ready PORT``) until killed."""
    handler = functools.partial(StaticHandler, directory=directory)
    server = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    server.daemon_threads = True
    print('ready %d' % server.server_address[1], flush=True)
    server.serve_forever()


def _start_static(body, workdir):
    """A static server process (its own, as the emulator has its own) serving ``body`` as /list.json; returns
    (process, port)."""
    with open(os.path.join(workdir, STATIC_NAME), 'wb') as handle:
        handle.write(body)
    process = subprocess.Popen(  # pylint: disable=consider-using-with
        [sys.executable, os.path.abspath(__file__), '--static', workdir],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, text=True)
    line = process.stdout.readline()
    if not line.startswith('ready '):
        process.kill()
        process.wait()
        raise RuntimeError('the static server did not start')
    return process, int(line.split()[1])


def _connection(url, timeout=300):
    parts = urlsplit(url)
    if parts.scheme == 'https':
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE  # a measurement of a local test server, not a trust decision
        return http.client.HTTPSConnection(parts.hostname, parts.port or 443, timeout=timeout, context=context)
    return http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=timeout)


def _get(connection, path, headers):
    connection.request('GET', path, headers=headers)
    response = connection.getresponse()
    body = response.read()
    if response.status != 200:
        raise RuntimeError('GET %s answered %s: %r' % (path, response.status, body[:200]))
    return body


def _rate(url, path, headers, seconds, size):
    """Requests per second of sequential GETs on one kept-alive connection for about ``seconds`` (at least one)."""
    connection = _connection(url)
    try:
        _get(connection, path, headers)  # connect (and shake hands) outside the measurement
        count = 0
        started = time.perf_counter()
        while True:
            body = _get(connection, path, headers)
            if len(body) != size:
                raise RuntimeError('GET %s sent %d bytes, not %d' % (path, len(body), size))
            count += 1
            elapsed = time.perf_counter() - started
            if elapsed >= seconds:
                return count / elapsed
    finally:
        connection.close()


def list_speed(url, token, path='/api/peers', seconds=3.0):
    """Requests per second the server at ``url`` answers ``GET path`` with, and those of a static file server
    serving the same bytes, measured with the same client (one kept-alive connection, sequential GETs, each body
    read whole) for about ``seconds`` each, in alternating rounds; medians. Returns
    ``{"emulator_rps", "static_rps", "ratio", "bytes"}``."""
    url = url.rstrip('/')
    headers = {'Authorization': 'Token %s' % token, 'Accept': 'application/json'}
    connection = _connection(url)
    try:
        body = _get(connection, path, headers)
    finally:
        connection.close()
    workdir = tempfile.mkdtemp(prefix='nms-serving-')
    process = None
    try:
        process, port = _start_static(body, workdir)
        static_url = 'http://127.0.0.1:%d' % port
        window = seconds / ROUNDS
        emulator_rates, static_rates = [], []
        for turn in range(ROUNDS):
            measures = [(emulator_rates, url, path), (static_rates, static_url, '/' + STATIC_NAME)]
            if turn % 2:
                measures.reverse()
            for rates, base, target in measures:
                rates.append(_rate(base, target, headers, window, len(body)))
    finally:
        if process is not None:
            process.kill()
            process.wait()
            process.stdout.close()
        shutil.rmtree(workdir, ignore_errors=True)
    emulator_rps = statistics.median(emulator_rates)
    static_rps = statistics.median(static_rates)
    return {'emulator_rps': emulator_rps, 'static_rps': static_rps, 'ratio': emulator_rps / static_rps,
            'bytes': len(body)}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n', 1)[0])
    parser.add_argument('url', nargs='?')
    parser.add_argument('token', nargs='?')
    parser.add_argument('--path', default='/api/peers')
    parser.add_argument('--seconds', type=float, default=3.0)
    parser.add_argument('--static', metavar='DIRECTORY', help=argparse.SUPPRESS)  # the static server process
    args = parser.parse_args(argv)
    if args.static:
        serve_static(args.static)
        return 0
    if not (args.url and args.token):
        parser.error('URL and TOKEN are required')
    figures = list_speed(args.url, args.token, args.path, args.seconds)
    print(json.dumps(figures))
    print('%s: %d bytes, emulator %.2f/s, static server %.2f/s, ratio %.3f'
          % (args.path, figures['bytes'], figures['emulator_rps'], figures['static_rps'], figures['ratio']))
    return 0


if __name__ == '__main__':
    sys.exit(main())
