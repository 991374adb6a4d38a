/** Every output of action.yml. Setting one that is not here is a compile error. */
export const OUTPUT_NAMES = [
  'data',
  'data-file',
  'http-status',
  'user-id',
  'access-token',
  'expiration-time',
  'sign-status',
  'sign-message',
  'elapsed',
  'polls',
  'download-url',
  'count',
  'success-events',
  'failure-events',
] as const;
export type OutputName = (typeof OUTPUT_NAMES)[number];
export type Outputs = Partial<Record<OutputName, string>>;
