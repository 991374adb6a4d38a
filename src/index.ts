import { run } from './main.ts';

// Not awaited at the top: each operation's file imports shared code from this one, and a module
// whose top-level await is pending cannot be imported. A rejection reaches the stream guard's
// unhandledRejection handler, and a run() that never settles fails on beforeExit: either way the
// step fails. In dist/index.js the modules only the operations import come after this call; run()
// reaches them only after its first await (the operation's import()), once they are evaluated.
void run();
