// `npm run emulator -- --port 8080 --flavour spec|bkci`: a bk-ci gateway on loopback for a person.
import { parseArgs } from 'node:util';

const USAGE = `usage: npm run emulator -- [options]

  --port N              port on 127.0.0.1 (default 8080; 0 picks a free one)
  --flavour bkci|spec   answer as open-source bk-ci does (default) or as the API spec says
  --user NAME           the user to create, with a login ticket and a token (default admin)
  --token-lifetime MS   lifetime of issued tokens in ms (default 4 h)
  --token-response wrapped|bare
                        the token endpoint's answer form (default: wrapped for bkci, bare for spec)
  --gateway             put the BlueKing API Gateway in front (app ci-app, secret app-secret-0001;
                        bk-ci's own /ms/openapi/… paths are then refused)
  --no-seed             start without the demo world (project demo, a re-sign task, pipelines
                        p-demo, p-review, p-long, p-fail, a build at its review, one ended with files,
                        one failed)
  --help                this text

Control endpoints and their bodies: emulator/README.md.`;

function fail(message: string): never {
  console.error(`${message}\n\n${USAGE}`);
  process.exit(2);
}

let values: Record<string, string | boolean | undefined>;
try {
  ({ values } = parseArgs({
    options: {
      port: { type: 'string', default: '8080' },
      flavour: { type: 'string', default: 'bkci' },
      user: { type: 'string', default: 'admin' },
      'token-lifetime': { type: 'string' },
      'token-response': { type: 'string' },
      seed: { type: 'boolean', default: true },
      'no-seed': { type: 'boolean', default: false },
      gateway: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  }));
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const text = (name: string): string | undefined => (typeof values[name] === 'string' ? values[name] : undefined);
const flavour = text('flavour');
if (flavour !== 'spec' && flavour !== 'bkci') fail(`--flavour must be spec or bkci, not ${flavour}`);
const tokenResponse = text('token-response');
if (tokenResponse !== undefined && tokenResponse !== 'wrapped' && tokenResponse !== 'bare')
  fail(`--token-response must be wrapped or bare, not ${tokenResponse}`);
const port = Number(text('port'));
if (!Number.isInteger(port) || port < 0 || port > 65535) fail(`--port must be a port number, not ${text('port')}`);
const lifetime = text('token-lifetime');
if (lifetime !== undefined && !/^\d+$/.test(lifetime)) fail(`--token-lifetime must be milliseconds, not ${lifetime}`);
const seed = values.seed === true && values['no-seed'] !== true;
const user = text('user') ?? 'admin';

function credentialsOf(user: { bkToken: string; token: { accessToken: string } }): { bkToken: string; accessToken: string } {
  return { bkToken: user.bkToken, accessToken: user.token.accessToken };
}

/** Why the port cannot be had, in one line that says what to do; undefined for anything else. */
function portProblem(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'EADDRINUSE')
    return `port ${port} on 127.0.0.1 is already in use (another emulator, or another server, listens there): stop it, or choose another port with --port N (--port 0 picks a free one)`;
  if (code === 'EACCES') return `port ${port} needs privileges this user does not have: choose a port above 1023 with --port N`;
  return undefined;
}

// The emulator's modules load once the arguments are known good: --help and a mistyped flag answer
// without them (most of this command's start is Node stripping their types).
const [{ DEMO, seedDemoWorld }, { startEmulator }] = await Promise.all([import('./demo-world.ts'), import('./server.ts')]);
const emulator = await startEmulator({
  flavour,
  port,
  ...(lifetime === undefined ? {} : { tokenLifetimeMs: Number(lifetime) }),
  ...(tokenResponse === undefined ? {} : { tokenResponse }),
  ...(values.gateway === true ? { gateway: {} } : {}),
}).catch((error: unknown) => {
  const problem = portProblem(error);
  if (problem === undefined) throw error;
  console.error(problem);
  process.exit(1);
});
const world = seed ? seedDemoWorld(emulator, user) : undefined;
const { bkToken, accessToken } = world ?? credentialsOf(emulator.addUser(user));
console.log(`listening on ${emulator.url}`);
console.log(
  `flavour: ${flavour}${values.gateway === true ? ', behind the BlueKing API Gateway (app ci-app, secret app-secret-0001): base-url is the URL above' : ''}`,
);
console.log(`bk-token: ${bkToken}`);
console.log(`access-token: ${accessToken}`);
console.log(`user-id: ${user}`);
for (const line of world?.banner ?? []) console.log(`seeded: ${line}`);
if (world !== undefined)
  console.log(
    `try: npm start -- base-url=${emulator.url}${values.gateway === true ? ' gateway=bk-apigateway' : ''} bk-token=${bkToken} operation=review-build project-id=${DEMO.projectId} build-id=${world.reviewBuild} decision=approve`,
  );
console.log(`control: ${emulator.url}/__emulator/… (emulator/README.md)`);

let stopping = false;
const stop = (): void => {
  if (stopping) return;
  stopping = true;
  void emulator.close().then(() => process.exit(0));
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
// `npm run emulator` starts this through a shell; a SIGTERM to npm ends the shell but not this
// process, which would keep the port. Its parent going away ends it too.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) stop();
}, 250).unref();
