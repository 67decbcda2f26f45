// Preloaded (node --import) into an otelgate under test: says on stderr when process.exit() is
// called, so a test can tell an exit by the event loop running out from one forced by a call.
const exit = process.exit.bind(process);
process.exit = (code) => {
  process.stderr.write(`process.exit(${String(code)}) called\n`);
  return exit(code);
};
