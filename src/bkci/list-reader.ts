// A wrapped list answer read as it arrives, an item at a time (see base/json-stream.ts).

import { ResponseFormatError } from '../base/errors.ts';
import { duplicateKey } from '../base/json.ts';
import { type JsonItemSink, MemberItems } from '../base/json-stream.ts';
import { z } from '../base/schema.ts';
import { stripBom } from '../base/text.ts';
import type { BodySink, WireResponse } from '../http/transport.ts';
import { checked, ISSUES_SHOWN, notJson, refuseDuplicateKeys, resultData, shapeError } from './result.ts';

/** A list answer as read: how many items, and the first few, checked. Every item went to the list's sink. */
export interface ListRead<T> {
  count: number;
  first: T[];
}

/**
 * A wrapped list answer read as it arrives: each item of `data` checked on its own, its JSON text
 * handed to `into`, and none kept but the first `keep`, so a list of 20,000 projects is never
 * 20,000 objects, nor its whole text, at once. Says what `unwrap` with an array of `item` says,
 * in the same words, except that a position in a JSON.parse message counts from what is left.
 */
export class ListReader<T> {
  readonly #item: z.ZodType<T>;
  readonly #keep: number;
  readonly #into: JsonItemSink;
  #split: MemberItems | undefined;
  #first: T[] = [];
  #count = 0;
  #issues: z.core.$ZodIssue[] = [];
  #notJson: unknown;
  /** The first item that gives a key twice. */
  #duplicate: string | undefined;

  constructor(item: z.ZodType<T>, keep: number, into: JsonItemSink) {
    this.#item = item;
    this.#keep = keep;
    this.#into = into;
  }

  /** A fresh start for each attempt: what a broken one gave is forgotten. */
  readonly sink = (): BodySink => this.#start();

  #start(): MemberItems {
    this.#first = [];
    this.#count = 0;
    this.#issues = [];
    this.#notJson = undefined;
    this.#duplicate = undefined;
    this.#into.restart();
    this.#split = new MemberItems('data', (text) => this.#take(text));
    return this.#split;
  }

  #take(text: string): void {
    if (this.#notJson !== undefined || this.#issues.length >= ISSUES_SHOWN) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (cause) {
      this.#notJson = cause;
      return;
    }
    if (this.#duplicate === undefined && duplicateKey(text) !== undefined) this.#duplicate = text;
    const one = this.#item.safeParse(value);
    if (one.success) {
      if (this.#first.length < this.#keep) this.#first.push(one.data);
      this.#into.add(JSON.stringify(one.data) ?? 'null');
    } else for (const issue of one.error.issues) this.#issues.push({ ...issue, path: [this.#count, ...issue.path] });
    this.#count++;
  }

  /** The list, once the answer has been read to its end; undefined when the server sent no data. */
  read(res: WireResponse, method: string, url: string, scrub: (text: string) => string): ListRead<T> | undefined {
    // A success without a body (204) never opened the sink: it reads as an empty body.
    const split = this.#split ?? this.#start();
    const { rest, head } = split.end();
    let value: unknown;
    try {
      value = JSON.parse(stripBom(rest));
    } catch (error) {
      throw notJson(error, head, res, method, url, scrub);
    }
    const data = resultData(value, res, method, url, scrub);
    if (split.arrays > 1)
      throw new ResponseFormatError({ method, url, status: res.status, detail: 'the result holds "data" more than once' });
    refuseDuplicateKeys(rest, res, method, url, scrub);
    if (this.#duplicate !== undefined) refuseDuplicateKeys(this.#duplicate, res, method, url, scrub);
    if (split.arrays === 0) {
      if (data === undefined || data === null) return undefined;
      checked(data, z.array(this.#item), res, method, url);
      throw new Error('a list that is not an array passed the check of an array');
    }
    if (this.#notJson !== undefined) throw notJson(this.#notJson, head, res, method, url, scrub);
    if (this.#issues.length > 0) throw shapeError(new z.ZodError(this.#issues), res, method, url);
    return { count: this.#count, first: this.#first };
  }
}
