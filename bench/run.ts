/** `npm run bench`: every benchmark in turn. */
import { runReaderBench } from './reader.ts';
import { runServerBench } from './server.ts';
import { runLoadBench } from './load.ts';

await runReaderBench();
await runServerBench();
await runLoadBench();
// Vite's build leaves handles open; the benchmarks are done.
process.exit(0);
