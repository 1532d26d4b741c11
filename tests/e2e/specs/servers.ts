import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { Page } from '@playwright/test';

// Servers the embed specs start on 127.0.0.1 at free ports: the project's own
// (scripts/static-server.mjs) and a plain static one that sends no CORS or cache header
// (Python's http.server), each on its own origin; and the bytes a page receives over the network.

const SERVER = path.resolve(__dirname, '../../../scripts/static-server.mjs');

export type Kind = 'project' | 'plain';
export interface Server {
  url: string;
  stop: () => void;
}

/** Serves `dir` on 127.0.0.1 at a free port: the project's server, or Python's http.server. */
export async function serve(kind: Kind, dir: string): Promise<Server> {
  const child: ChildProcess =
    kind === 'project'
      ? spawn('node', [SERVER, dir, '--host', '127.0.0.1', '--port', '0'])
      : spawn('python3', ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1', '--directory', dir]);
  const stop = () => child.kill('SIGTERM');
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += String(d);
      const project = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      const plain = /port (\d+)/.exec(out);
      if (kind === 'project' && project) resolve(project[1]);
      if (kind === 'plain' && plain) resolve(`http://127.0.0.1:${plain[1]}/`);
    });
    child.on('exit', (code) => reject(new Error(`${kind} server exited (${code}): ${out}`)));
  });
  return { url, stop };
}


/** The bytes received over the network by a page and its frames (headers and bodies; 0 for a cache hit). */
export async function countBytes(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  const total = { bytes: 0, requests: 0, local: 0, urls: new Map<string, number>() };
  const urlOf = new Map<string, string>();
  cdp.on('Network.requestWillBeSent', (e) => urlOf.set(e.requestId, e.request.url));
  cdp.on('Network.responseReceived', (e) => urlOf.set(e.requestId, e.response.url));
  cdp.on('Network.loadingFinished', (e) => {
    // A data: URL, or a frame's srcdoc (reported with no request, under no URL), is no network
    // traffic, though CDP reports its size as if it were.
    const seen = urlOf.get(e.requestId);
    if (seen === undefined || seen.startsWith('data:')) {
      total.local += e.encodedDataLength;
      return;
    }
    total.bytes += e.encodedDataLength;
    if (e.encodedDataLength > 0) total.requests += 1;
    const url = urlOf.get(e.requestId) ?? '?';
    total.urls.set(url, (total.urls.get(url) ?? 0) + e.encodedDataLength);
  });
  return {
    total,
    reset: () => {
      total.bytes = 0;
      total.requests = 0;
      total.local = 0;
      total.urls.clear();
    },
  };
}

