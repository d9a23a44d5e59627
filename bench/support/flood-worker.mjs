// A closed-loop flood in a thread of its own (bench/support/flood.ts starts it): `inFlight`
// requests kept in flight, each sent again as soon as it is answered. In its own thread, the
// flood's answers never delay the event loop that paces and times the measured requests.
import { parentPort, workerData } from 'node:worker_threads';
import { Pool } from 'undici';

const { url, inFlight, load } = workerData;

/** Request `i` of the flood: a sign-in with a wrong password (half for a known address), or a GET. */
function request(i) {
  if (load.kind === 'get') return { method: 'GET', path: load.path };
  return {
    method: 'POST',
    path: '/console/sign-in',
    headers: { cookie: load.cookie, origin: url, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      _csrf: load.csrf,
      email: i % 2 ? load.knownEmail : `nobody.${i}@acme.example`,
      password: `guessed password ${i}`,
    }).toString(),
  };
}

const pool = new Pool(url, { connections: inFlight, pipelining: 1 });
const statuses = new Map();
const latencies = [];
let running = true;
let n = 0;
async function client() {
  while (running) {
    const started = performance.now();
    try {
      const res = await pool.request(request(n++));
      await res.body.dump();
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
    } catch {
      statuses.set(0, (statuses.get(0) ?? 0) + 1);
    }
    latencies.push(performance.now() - started);
  }
}
const clients = Array.from({ length: inFlight }, client);
parentPort.on('message', async (message) => {
  if (message !== 'stop') return;
  running = false;
  await Promise.all(clients);
  await pool.close();
  parentPort.postMessage({ statuses: [...statuses], latencies });
});
parentPort.postMessage('started');
