// A bot that throws at its first request: node prints the error, its
// frames and its own version on standard error, and exits with code 1.
const readline = require('readline');
readline.createInterface({ input: process.stdin }).on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.type === 'hello') {
    process.stdout.write('{"type":"ready"}\n');
  } else if (msg.type === 'request') {
    throw new TypeError('no move for request ' + msg.id);
  }
});
