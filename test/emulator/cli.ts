// `npm run emulator -- --port 8080 --flavour spec|bkci`: a bk-ci gateway on loopback for a person.
import { parseArgs } from 'node:util';
import { startEmulator } from './server.ts';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '8080' },
    flavour: { type: 'string', default: 'bkci' },
    user: { type: 'string', default: 'admin' },
    'token-lifetime': { type: 'string' },
    'token-response': { type: 'string' },
    seed: { type: 'boolean', default: true },
  },
});
const flavour = values.flavour;
if (flavour !== 'spec' && flavour !== 'bkci') {
  console.error(`--flavour must be spec or bkci, not ${flavour}`);
  process.exit(2);
}
const tokenResponse = values['token-response'];
if (tokenResponse !== undefined && tokenResponse !== 'wrapped' && tokenResponse !== 'bare') {
  console.error(`--token-response must be wrapped or bare, not ${tokenResponse}`);
  process.exit(2);
}
const emulator = await startEmulator({
  flavour,
  port: Number(values.port),
  ...(values['token-lifetime'] ? { tokenLifetimeMs: Number(values['token-lifetime']) } : {}),
  ...(tokenResponse ? { tokenResponse } : {}),
});
const { bkToken, token } = emulator.addUser(values.user);
if (values.seed) {
  emulator.seedProject({ englishName: 'demo', projectName: 'Demo project', description: 'seeded by the emulator', creator: values.user });
  emulator.seedSign({ resignId: 's-demo', runningMs: 10_000, result: 'SUCCESS', projectId: 'demo' });
}
console.log(`listening on ${emulator.url}`);
console.log(`flavour: ${flavour}`);
console.log(`bk-token: ${bkToken}`);
console.log(`access-token: ${token.accessToken}`);
console.log(`user-id: ${values.user}`);
if (values.seed) console.log('seeded: project "demo", re-sign task "s-demo" (RUNNING for 10 s after start, then SUCCESS)');
console.log(`control: POST ${emulator.url}/__emulator/{users,projects,signs,faults,deliver}, GET ${emulator.url}/__emulator/log`);
const stop = (): void => void emulator.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
