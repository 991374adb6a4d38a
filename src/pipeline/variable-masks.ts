// Which build variables are masked. The runner masks job-wide: a masked `false` or `1.10` turns
// every later `false` or `1.10` of the whole job's log into `***`, so only what is secret is
// masked: the pipeline's password-type parameters, the names the user lists in `mask-variables`,
// and values shaped like credentials. A value too short or too common to mask safely is never
// masked; when it was asked for, the step says so (by name, never the value).
import { MIN_SECRET } from '../runner/secrets.ts';

/** Why a value is never masked, or undefined when it may be. */
export function unmaskable(value: string): string | undefined {
  const text = value.trim();
  if (text.length < MIN_SECRET) return `shorter than ${MIN_SECRET} characters`;
  if (/^(true|false|yes|no|on|off|null|none|undefined)$/i.test(text)) return 'a common word';
  // Numbers, versions, dates and times (1.10, 2.3.4, 12:30): short ones recur all over a log. A
  // longer run of digits (a PIN, an account number) is rare enough to mask.
  if (/^[-+]?[\d.,:/_ -]+$/.test(text) && text.length < 8) return 'a short number';
  return undefined;
}

/** Letters and digits of a token: base64, base64url and the like. */
const TOKEN = /^[A-Za-z0-9+/=_-]+$/;

/** Shannon entropy, in bits per character. */
function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const char of text) counts.set(char, (counts.get(char) ?? 0) + 1);
  let bits = 0;
  for (const count of counts.values()) bits -= (count / text.length) * Math.log2(count / text.length);
  return bits;
}

/**
 * Whether the value looks like a credential: a key block, a JWT, a token with a known prefix
 * (GitHub, GitLab, Slack, AWS, npm), or one long random-looking word (at least 32 characters of
 * base64's alphabet with upper case, lower case and digits, over 4 bits of entropy a character).
 * Hex alone (a commit SHA, a checksum) and UUIDs stay visible: they identify, they do not grant.
 */
export function credentialShaped(value: string): boolean {
  const text = value.trim();
  if (/-----BEGIN [A-Z ]*(PRIVATE KEY|CERTIFICATE|KEY)-----/.test(text)) return true;
  if (/^eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]*$/.test(text)) return true;
  if (
    /^(gh[pousr]_[A-Za-z0-9]{30,}|github_pat_\w{30,}|glpat-[\w-]{20,}|xox[abposr]-[\w-]{10,}|AKIA[0-9A-Z]{16}|npm_[A-Za-z0-9]{30,})$/.test(
      text,
    )
  )
    return true;
  return text.length >= 32 && TOKEN.test(text) && /[A-Z]/.test(text) && /[a-z]/.test(text) && /\d/.test(text) && entropy(text) > 4;
}

export interface MaskAsk {
  /** The names whose parameter the pipeline declares a password. */
  passwords: ReadonlySet<string>;
  /** `mask-variables`: names, or `*` for all. */
  listed: readonly string[];
}

export interface MaskPlan {
  /** The names whose value is masked. */
  masked: string[];
  /** Asked-for names whose value is not masked, with why. */
  refused: [string, string][];
}

/** Which values are masked: those asked for (a password, a listed name) that can be, and credential-shaped ones. */
export function maskPlan(values: Readonly<Record<string, string>>, ask: MaskAsk): MaskPlan {
  const all = ask.listed.includes('*');
  const masked: string[] = [];
  const refused: [string, string][] = [];
  for (const [name, value] of Object.entries(values)) {
    const asked = all || ask.passwords.has(name) || ask.listed.includes(name);
    const why = unmaskable(value);
    if (why === undefined && (asked || credentialShaped(value))) masked.push(name);
    // An empty value is nothing to hide: no warning for it.
    else if (why !== undefined && asked && value !== '') refused.push([name, why]);
  }
  return { masked, refused };
}

/** The warning for values asked to be masked that are not. */
export function refusedWarning(refused: readonly [string, string][]): string {
  const list = refused.map(([name, why]) => `${name} (${why})`).join(', ');
  return `the value of ${list} is not masked: masking so short or common a value would blank every occurrence of it in the whole job's log; keep such values out of secrets, or make them longer`;
}
