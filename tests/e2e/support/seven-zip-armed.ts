/**
 * The file seven-zip-times-out.ts (a preload of the e2e server) writes into the server's data
 * directory once its 7-Zip time limit is armed. Apart from the preload, which must not be imported
 * by a spec: it listens for a signal wherever it is loaded.
 */
export const ARMED_FILE = 'seven-zip-times-out.armed';
