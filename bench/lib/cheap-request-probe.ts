/**
 * Child process of bench/file-hash-blocking.ts: asks for one cheap URL again and again, one
 * request after another, from its own process (so the server's thread does not also run the
 * client). Told 'start' it clears its figures; told 'stop' it sends back the latency of each
 * request since, in ms. Usage (forked): cheap-request-probe.ts URL AUTHORIZATION
 */
export {};

const [url, authorization] = process.argv.slice(2) as [string, string];
let latencies: number[] = [];
let statuses = new Set<number>();
let running = true;

process.on('message', (message: string) => {
  if (message === 'start') {
    latencies = [];
    statuses = new Set();
  } else if (message === 'stop') {
    process.send!({ latencies, statuses: [...statuses] });
  } else if (message === 'exit') {
    running = false;
  }
});

while (running) {
  const asked = performance.now();
  const response = await fetch(url, { headers: { authorization } });
  await response.arrayBuffer();
  latencies.push(performance.now() - asked);
  statuses.add(response.status);
}
process.disconnect?.();
