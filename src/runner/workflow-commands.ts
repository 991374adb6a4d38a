// The runner's protocol, through @actions/core: inputs, workflow commands on stdout, outputs and
// the job summary (appended here) in the files the runner names. This stays the one place that writes commands
// (streams.ts lets them through as written and defuses everything else), and every message is
// defused on its way: no text, a server's or ours, can come out as a runner
// command (add-mask's value aside, which is ours). A command's message keeps its line breaks
// (core escapes them; the runner shows them inside the annotation); a plain line is folded.
import { appendFileSync } from 'node:fs';
import * as core from '@actions/core';
import { local } from '../base/errors.ts';
import { defuse, neutralise } from '../base/text.ts';
import { asOwn } from './streams.ts';

/** The input's value, trimmed, or '' when not set (the runner sets every declared default). */
export const getInput = (name: string): string => core.getInput(name);

/** Masks the value in everything the runner shows from now on. */
export const setSecret = (value: string): void => asOwn(() => core.setSecret(value));

export const info = (message: string): void => asOwn(() => core.info(neutralise(message)));

export const debug = (message: string): void => asOwn(() => core.debug(defuse(message)));

export const warning = (message: string): void => asOwn(() => core.warning(defuse(message)));

/** Opens a foldable group titled with the text (one line, defused); groups do not nest. */
export const startGroup = (title: string): void => asOwn(() => core.startGroup(neutralise(title)));

export const endGroup = (): void => asOwn(() => core.endGroup());

/** An error annotation, and the step's exit code 1. */
export const setFailed = (message: string): void => asOwn(() => core.setFailed(defuse(message)));

/**
 * Any value, new lines included: core writes the runner's `name<<DELIMITER` form to GITHUB_OUTPUT.
 * Without that file core falls back to a `::set-output` line on stdout, which carries server
 * text: defused like every other line then.
 */
export const setOutput = (name: string, value: string): void =>
  local('GITHUB_OUTPUT', () => asOwn(() => core.setOutput(name, process.env.GITHUB_OUTPUT ? value : defuse(value))));

/** Appends Markdown to the job summary; false when the runner gave no summary file. */
export async function appendSummary(markdown: string): Promise<boolean> {
  const path = process.env.GITHUB_STEP_SUMMARY;
  if (!path) return false;
  // Not core.summary: it writes through fs.promises, whose getter loads Node's promise API for
  // files (and readline with it) at every start, about 3 ms (BENCHMARKS.md); and it keeps the first
  // path it read. The runner creates the file; an append is what core.summary's write() does.
  local('the job summary (GITHUB_STEP_SUMMARY)', () => appendFileSync(path, markdown, { encoding: 'utf8' }));
  return true;
}
