// Folio's server is TypeScript that Node runs as it is (type stripping, on by default from Node
// 22.18). An older Node stops at the first .ts file with ERR_UNKNOWN_FILE_EXTENSION, a stack that
// says nothing about the version; npm start, serve and demo run this plain script first instead.
const NEEDED = [22, 18];
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < NEEDED[0] || (major === NEEDED[0] && minor < NEEDED[1])) {
  console.error(`Folio needs Node.js ${NEEDED.join('.')} or newer to run; this is Node.js ${process.versions.node} (${process.execPath}). Install a newer Node.js (see README, Requirements) and run the command again.`);
  process.exit(1);
}
