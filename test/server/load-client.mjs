// Load generator for the agent socket, run as its own process by the tests and the benchmark:
//   node test/server/load-client.mjs SOCKET CLIENTS REQUESTS_PER_CLIENT METHOD PARAMS_JSON [pipeline|sequential|paced:MS]
// pipeline: all requests at once; sequential: the next when the last is answered (closed loop, the
// server always has CLIENTS calls waiting); paced:MS: each client sends at random intervals averaging
// MS, answered or not (open loop, like agents calling at their own pace).
// PARAMS_JSON is one params object, or an array of them used in turn (a file: @path/to/params.json).
// Prints one JSON object: answered, errors by code, ids that came back wrong, latency percentiles (ms).
import fs from 'node:fs';
import net from 'node:net';

const [socketPath, clientsArg, perArg, method, paramsJson, mode = 'pipeline'] = process.argv.slice(2);
const clients = Number(clientsArg);
const per = Number(perArg);
const parsed = JSON.parse(paramsJson?.startsWith('@') ? fs.readFileSync(paramsJson.slice(1), 'utf8') : (paramsJson ?? '{}'));
const paramsList = Array.isArray(parsed) ? parsed : [parsed];
const latencies = [];
const errors = {};
let answered = 0;
let mismatched = 0;

function client(c) {
  return new Promise((resolve) => {
    const s = net.connect(socketPath);
    const sentAt = new Map();
    let buf = '';
    let next = 0;
    const send = () => {
      const id = c * 100000 + next++;
      const params = paramsList[(c * 7919 + next) % paramsList.length];
      sentAt.set(id, performance.now());
      s.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    };
    s.setEncoding('utf8');
    s.on('error', (e) => {
      errors[e.code ?? 'socket'] = (errors[e.code ?? 'socket'] ?? 0) + 1;
      resolve();
    });
    s.on('connect', () => {
      if (mode === 'pipeline') for (let i = 0; i < per; i++) send();
      else if (mode.startsWith('paced:')) {
        const mean = Number(mode.slice(6));
        const tick = () => {
          send();
          if (next < per) setTimeout(tick, -Math.log(1 - Math.random()) * mean);
        };
        setTimeout(tick, Math.random() * mean);
      } else send();
    });
    s.on('data', (d) => {
      buf += d;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const msg = JSON.parse(buf.slice(0, nl));
        buf = buf.slice(nl + 1);
        const t0 = sentAt.get(msg.id);
        if (t0 === undefined) mismatched++;
        else {
          latencies.push(performance.now() - t0);
          sentAt.delete(msg.id);
        }
        answered++;
        if (msg.error) errors[msg.error.code] = (errors[msg.error.code] ?? 0) + 1;
        if (mode === 'sequential' && next < per) send();
        else if (sentAt.size === 0 && next >= per) {
          s.end();
          resolve();
        }
      }
    });
  });
}

const started = performance.now();
await Promise.all(Array.from({ length: clients }, (_, c) => client(c)));
latencies.sort((a, b) => a - b);
const pct = (p) => (latencies.length ? Number(latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))].toFixed(2)) : null);
process.stdout.write(
  JSON.stringify({ answered, errors, mismatched, p50: pct(50), p95: pct(95), max: pct(100), ms: Math.round(performance.now() - started) }) + '\n',
);
