// The runner's protocol, the part this action uses: inputs from INPUT_<NAME>, workflow commands
// on stdout, outputs and the job summary appended to the files the runner names. This is the one
// place that writes to stdout, and every message is defused on its way: no text, a server's or
// ours, can come out as a runner command (add-mask's value aside, which is ours). A command's
// message keeps its line breaks (escaped, the runner shows them inside the annotation); a plain
// line is folded onto one line.
// @actions/core does the same but loads its OIDC client at start-up, and with it
// @actions/http-client and a second copy of undici: about 40 ms of every run spent on code this
// action never calls (BENCHMARKS.md). The format is the runner's, documented and stable; the
// black-box tests read it back the way the runner does.
import { randomUUID } from 'node:crypto';
import { accessSync, appendFileSync, constants } from 'node:fs';
import { EOL } from 'node:os';
import { defuse, neutralise } from '../text.ts';

/** Command data as the runner unescapes it. */
const escapeData = (text: string): string => text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

function command(name: string, message: string): void {
  process.stdout.write(`::${name}::${escapeData(message)}${EOL}`);
}

/** The input's value, trimmed, or '' when not set (the runner sets every declared default). */
export function getInput(name: string): string {
  return (process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

/** Masks the value in everything the runner shows from now on. */
export function setSecret(value: string): void {
  command('add-mask', value);
}

export function info(message: string): void {
  process.stdout.write(`${neutralise(message)}${EOL}`);
}

export function debug(message: string): void {
  command('debug', defuse(message));
}

export function warning(message: string): void {
  command('warning', defuse(message));
}

/** An error annotation, and the step's exit code 1. */
export function setFailed(message: string): void {
  process.exitCode = 1;
  command('error', defuse(message));
}

function appendToFile(variable: 'GITHUB_OUTPUT' | 'GITHUB_STEP_SUMMARY', text: string): void {
  const path = process.env[variable];
  if (!path) throw new Error(`${variable} is not set: is this running in a GitHub Actions step?`);
  appendFileSync(path, text, { encoding: 'utf8' });
}

/** `name<<DELIMITER`, the value, `DELIMITER`: the runner's form for any value, new lines included. */
export function setOutput(name: string, value: string): void {
  const delimiter = `ghadelimiter_${randomUUID()}`;
  if (name.includes(delimiter) || value.includes(delimiter)) throw new Error('an output holds its own delimiter');
  appendToFile('GITHUB_OUTPUT', `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`);
}

/** Appends Markdown to the job summary; false when the runner gave no summary file. */
export function appendSummary(markdown: string): boolean {
  const path = process.env.GITHUB_STEP_SUMMARY;
  if (!path) return false;
  accessSync(path, constants.W_OK);
  appendToFile('GITHUB_STEP_SUMMARY', markdown);
  return true;
}
