// The samples' sockets in a real browser: headless Chromium loads a page from another local origin (one the samples'
// CORS allows) whose script opens 10 sockets to /ws/echo and 10 to /ws/chat, and reports what each one received.
import type { RunningServer } from '../../lib';
import { buildSamples } from '../../samples/app';
import { pageResult } from '../support/chromium';

/** A page whose script opens the sockets, sends on each, and POSTs every socket's answers to `/result`. */
const PAGE = `<!doctype html><html><body><script>
const base = new URLSearchParams(location.search).get('api').replace(/^http/, 'ws');
const open = (path, send, expected) => new Promise((resolve) => {
  const socket = new WebSocket(base + path);
  const got = [];
  socket.onopen = () => send(socket);
  socket.onmessage = (event) => {
    got.push(event.data);
    if (got.length === expected) { socket.close(1000); resolve(got.join('|')); }
  };
  socket.onerror = () => resolve('error');
});
(async () => {
  const echoes = Array.from({ length: 10 }, (_, i) =>
    open('/ws/echo', (s) => { s.send('hi ' + i); s.send(JSON.stringify({ upper: 'up ' + i })); }, 2));
  // Every chat socket sends one message once all ten are open, and receives all ten.
  let ready = 0;
  let go;
  const allOpen = new Promise((resolve) => (go = resolve));
  const chats = Array.from({ length: 10 }, (_, i) =>
    open('/ws/chat?room=browser', (s) => {
      if (++ready === 10) go();
      allOpen.then(() => s.send(JSON.stringify({ user: 'u' + i, text: 't' + i })));
    }, 10));
  const results = await Promise.all([...echoes, ...chats]);
  await fetch('/result', { method: 'POST', body: JSON.stringify(results) });
})();
</script></body></html>`;

describe('WebSockets in a browser', () => {
  let api: RunningServer;

  beforeAll(async () => {
    // The samples answer CORS: pages of local origins are allowed, as a deployment allows its web app's.
    api = await buildSamples({ 'framework.http.cors.origins': '/http://127\\.0\\.0\\.1:[0-9]+/' }).listen({
      port: 0,
      host: '127.0.0.1',
      handleSignals: false,
    });
  });

  afterAll(() => api.close());

  it('opens 10 sockets to /ws/echo and 10 to /ws/chat from a page, and each sees its answers', async () => {
    const results = JSON.parse(await pageResult(PAGE, `?api=${encodeURIComponent(api.url)}`)) as string[];
    expect(results).toHaveLength(20);
    for (let i = 0; i < 10; i++) expect(results[i]).toBe(`hi ${i}|{"upper":"UP ${i}"}`);
    const everyMessage = Array.from({ length: 10 }, (_, i) => JSON.stringify({ user: `u${i}`, text: `t${i}` })).sort();
    for (const chat of results.slice(10)) expect(chat.split('|').sort()).toEqual(everyMessage);
  }, 60_000);
});
