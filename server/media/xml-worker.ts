/**
 * Worker thread for large XML documents (see xml-parsing.ts): the parsers are synchronous and a
 * hostile document of a few MB costs them seconds, which here blocks no request. The parser
 * modules are loaded on first use and kept.
 */
import { parentPort } from 'node:worker_threads';
import type { XmlOutcome, XmlRequest } from './xml-protocol.ts';

const modules = new Map<string, Promise<Record<string, unknown>>>();

function loaded(module: string): Promise<Record<string, unknown>> {
  let found = modules.get(module);
  if (!found) {
    found = import(module) as Promise<Record<string, unknown>>;
    modules.set(module, found);
  }
  return found;
}

/** A thrown value as plain data (its own enumerable fields survive the copy to the main thread). */
function described(error: unknown): NonNullable<XmlOutcome['thrown']> {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error), fields: {} };
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(error)) {
    if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) fields[key] = value;
  }
  return { name: error.name, message: error.message, fields };
}

parentPort!.on('message', (request: XmlRequest) => {
  void (async () => {
    let outcome: XmlOutcome;
    try {
      const parser = (await loaded(request.module))[request.name];
      if (typeof parser !== 'function') throw new Error(`${request.module} has no function ${request.name}`);
      outcome = { value: (parser as (...args: unknown[]) => unknown)(...request.args) };
    } catch (error) {
      outcome = { thrown: described(error) };
    }
    parentPort!.postMessage({ id: request.id, result: outcome });
  })();
});
