import { describe, expect, it } from 'vitest';
import { InputError } from '../../src/base/errors.ts';
import { prepareStep, type Step } from '../../src/operations/prepare-step.ts';
import { SECRET_INPUT_NAMES } from '../../src/operations/registry.ts';

const BASE = {
  operation: 'get-project',
  'base-url': 'https://devops.example.com',
  'access-token': 'tok%2B',
  'user-id': 'alice',
  'project-id': 'demo',
};

type Given = Record<string, string>;

async function parse(inputs: Given): Promise<Step & { task: unknown }> {
  const step = await prepareStep((name) => inputs[name] ?? '');
  return { ...step, task: step.job.task };
}
async function problems(inputs: Given): Promise<string> {
  try {
    await parse(inputs);
  } catch (e) {
    if (e instanceof InputError) return e.message;
    throw e;
  }
  throw new Error('parsed without a problem');
}

describe('parseInputs', () => {
  it('applies the defaults of the contract', async () => {
    const { settings, task } = await parse(BASE);
    expect(settings).toEqual({
      baseUrl: 'https://devops.example.com',
      gateway: 'bk-ci',
      accessToken: 'tok%2B',
      bkToken: undefined,
      appCode: undefined,
      userId: 'alice',
      timeoutMs: 1_800_000,
      pollIntervalMs: 5000,
      requestTimeoutMs: 30_000,
      retries: 3,
      allowInsecureHttp: false,
    });
    expect(task).toEqual({ 'project-id': 'demo' });
  });

  it.each([
    ['https://devops.example.com/', 'https://devops.example.com'],
    ['https://devops.example.com/gw/prefix/', 'https://devops.example.com/gw/prefix'],
    ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
    ['http://localhost:8080', 'http://localhost:8080'],
    ['http://[::1]:8080', 'http://[::1]:8080'],
  ])('base-url %s → %s', async (url, expected) => {
    expect((await parse({ ...BASE, 'base-url': url })).settings.baseUrl).toBe(expected);
  });

  it.each([
    [{ operation: 'delete-project' }, /operation "delete-project" is not one of get-token, sign-detail/],
    [{ operation: '' }, /operation is required/],
    [{ 'base-url': '' }, /base-url is required/],
    [{ 'base-url': 'devops.example.com' }, /not an absolute URL/],
    [{ 'base-url': 'ftp://devops.example.com' }, /must use https/],
    [{ 'base-url': 'https://u:p@devops.example.com' }, /user name or password/],
    [{ 'base-url': 'https://devops.example.com/?a=1' }, /query/],
    [{ 'base-url': 'http://devops.example.com' }, /plain http to devops\.example\.com.*allow-insecure-http/],
    [{ timeout: '5x' }, /timeout "5x" is not a duration/],
    [{ timeout: '100h' }, /timeout must be between/],
    [{ 'poll-interval': '500ms' }, /poll-interval must be between 1s/],
    [{ 'request-timeout': 'soon' }, /request-timeout "soon"/],
    [{ retries: 'three' }, /retries must be a whole number/],
    [{ retries: '11' }, /retries must be a whole number from 0 to 10/],
    [{ operation: 'sign-detail', 'resign-id': 's', wait: 'yes' }, /wait must be true or false, not "yes"/],
    [{ operation: 'sign-detail', 'resign-id': 's', 'download-url': '1' }, /download-url must be true or false/],
    [
      { operation: 'create-project', project: 'englishName: x1\nprojectName: X', 'if-exists': 'replace' },
      /if-exists must be fail, skip or update/,
    ],
    [{ 'project-id': '' }, /project-id is required for operation get-project/],
    [{ 'project-id': '..' }, /project-id cannot be "\." or "\.\."/],
    [{ 'user-id': '' }, /user-id is required with access-token/],
  ])('refuses %j', async (change, message) => {
    expect(await problems({ ...BASE, ...change })).toMatch(message);
  });

  it('lists every problem at once', async () => {
    const text = await problems({ ...BASE, 'project-id': '', operation: 'sign-detail', timeout: 'x', retries: 'y', wait: 'z' });
    expect(text).toMatch(/^invalid inputs:\n- /);
    // timeout, retries, wait, and the missing resign-id
    expect(text.split('\n- ')).toHaveLength(5);
  });

  it.each(['true', 'True', 'TRUE', 'false', 'False', 'FALSE'])('takes the YAML 1.2 boolean %s', async (v) => {
    const { task } = await parse({ ...BASE, 'project-id': '', operation: 'sign-detail', 'resign-id': 's-1', wait: v });
    expect(task).toMatchObject({ wait: v.toLowerCase() === 'true' });
  });

  it('allows plain http to another host only when told to', async () => {
    const { settings } = await parse({ ...BASE, 'base-url': 'http://devops.intranet', 'allow-insecure-http': 'true' });
    expect(settings.baseUrl).toBe('http://devops.intranet');
  });

  it('takes bk-token without user-id', async () => {
    const { settings } = await parse({ ...BASE, 'access-token': '', 'bk-token': 'ticket' });
    expect(settings.bkToken).toBe('ticket');
    expect(settings.userId).toBe('alice');
  });

  it('refuses get-token with only an access-token', async () => {
    expect(await problems({ ...BASE, operation: 'get-token' })).toMatch(/get-token issues a new token from bk-token/);
  });

  it('knows which inputs are secrets, whichever operation reads them', () => {
    expect([...SECRET_INPUT_NAMES].sort()).toEqual(['access-token', 'app-secret', 'bk-token', 'github-token', 'secret-token']);
  });

  describe('project', () => {
    const create = { ...BASE, operation: 'create-project', 'project-id': '' };
    it.each([
      ['JSON', '{"englishName":"demo-2","projectName":"Demo","bgId":"12","secrecy":true}'],
      ['YAML', 'englishName: demo-2\nprojectName: Demo\nbgId: 12\nsecrecy: true\n'],
      ['YAML flow', '{englishName: demo-2, projectName: Demo, bgId: 12, secrecy: true}'],
    ])('as %s', async (_, project) => {
      const { task } = await parse({ ...create, project });
      expect(task).toEqual({ 'if-exists': 'fail', project: { englishName: 'demo-2', projectName: 'Demo', bgId: 12, secrecy: true } });
    });

    it.each([
      ['[1, 2]', /must be a JSON object or a YAML mapping/],
      ['{"englishName": "x"', /neither a JSON object nor a YAML mapping/],
      ['projectName: Demo', /must give englishName and projectName/],
      ['{"englishName":"Demo","projectName":"D"}', /englishName "Demo" must be 2-32 characters/],
      ['{"englishName":"demo","projectName":"D","bgId":"twelve"}', /project\.bgId/],
      ['{"englishName":"demo","projectName":"D","secrecy":"yes"}', /project\.secrecy/],
    ])('refuses %s', async (project, message) => {
      expect(await problems({ ...create, project })).toMatch(message);
    });

    it('needs project-id and englishName to agree', async () => {
      expect(await problems({ ...create, 'project-id': 'other', project: '{"englishName":"demo","projectName":"D"}' })).toMatch(/differ/);
      expect(await problems({ ...BASE, operation: 'update-project', project: '{"englishName":"other"}' })).toMatch(/cannot be changed/);
    });

    it('update takes any subset of fields', async () => {
      const { task } = await parse({ ...BASE, operation: 'update-project', project: 'description: new words' });
      expect(task).toEqual({ 'project-id': 'demo', project: { description: 'new words' } });
    });
  });

  describe('callbacks', () => {
    const cb = {
      ...BASE,
      operation: 'create-callbacks',
      'callback-url': 'https://hooks.example.com/x',
      region: 'DEVNET',
      events: 'BUILD_START, BUILD_END',
    };
    it('splits events and keeps the region', async () => {
      const { task } = await parse(cb);
      expect(task).toEqual({
        'project-id': 'demo',
        'callback-url': 'https://hooks.example.com/x',
        region: 'DEVNET',
        events: ['BUILD_START', 'BUILD_END'],
        'replace-events': false,
      });
    });
    it.each([
      [{ events: 'BUILD_START,BUILD_ENDD' }, /event "BUILD_ENDD" is not a bk-ci callback event \(did you mean BUILD_END\?\)/],
      [{ events: ' , ' }, /events names no event/],
      [{ region: 'devnet' }, /region "devnet" is not one of DEVNET, OSS, IDC \(did you mean DEVNET\?\)/],
      [{ 'callback-url': '/relative' }, /callback-url "\/relative" must be an absolute http\(s\) URL/],
      [{ 'callback-url': 'ftp://x' }, /must be an absolute http\(s\) URL/],
      [{ 'callback-url': 'https://hooks.example.com/a\nb' }, /must be an absolute http\(s\) URL/],
      [{ 'callback-url': 'https://hooks.example.com/a b' }, /must be an absolute http\(s\) URL/],
      [{ 'callback-url': '' }, /callback-url is required/],
    ])('refuses %j', async (change, message) => {
      expect(await problems({ ...cb, ...change })).toMatch(message);
    });
  });
});
