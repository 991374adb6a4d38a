import { run } from './main.ts';

// Not awaited at the top: each operation's file imports shared code from this one, and a module
// whose top-level await is pending cannot be imported. A rejection reaches the stream guard's
// unhandledRejection handler, which fails the step.
void run();
