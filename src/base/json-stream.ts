// A long JSON array taken out of an answer as it arrives, one item at a time. Kept whole, a list of
// 20,000 projects is its bytes, its text and 20,000 objects at once (BENCHMARKS.md); split as it
// comes, it is one item at a time. Only ASCII bytes are looked at (quotes, backslashes, brackets,
// commas, the colon), and no byte of a multi-byte UTF-8 character is ASCII, so a split between
// chunks, or inside a character, changes nothing.

/** Where the items of a split list go, each as its JSON text. */
export interface JsonItemSink {
  /** Forget every item given so far: the answer is being read again (a retry). */
  restart(): void;
  add(text: string): void;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const HEAD_BYTES = 256;

const isSpace = (c: number): boolean => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;

/**
 * Splits the array held by the member `name` of a top-level JSON object out of UTF-8 bytes given
 * in chunks: each item's text goes to `onItem` when it ends, and what is left (`rest`) is the
 * text with that array written `[]`. Nothing is parsed here: an item's text is JSON.parse's to
 * check, and `rest` too, so whatever is not JSON still fails there. An empty item (`[,`, `,,`,
 * `,]`) leaves a comma in `rest`, which makes it fail. Bytes that are not an object holding such
 * an array all stay in `rest`.
 */
export class MemberItems {
  readonly #name: string;
  readonly #onItem: (text: string) => void;
  readonly #rest: Buffer[] = [];
  readonly #head: Buffer[] = [];
  #offset = 0;
  #started = false;
  #object = false;
  #depth = 0;
  #inString = false;
  #escaped = false;
  /** At depth 1: a string now is a key (after `{` or `,`). */
  #keyNext = false;
  /** The key being read, in pieces when it spans chunks. */
  #key: Buffer[] | undefined;
  #lastKey = '';
  /** At depth 1, after the colon of the member `name`. */
  #memberValueNext = false;
  /** Inside the member's array, at its own depth: bytes belong to the current item. */
  #inItems = false;
  #item: Buffer[] = [];
  #itemHasText = false;
  #commaSeen = false;
  #arrays = 0;
  /** In the chunk being written: bytes from here on go to `rest` (outside the items) or to the current item (inside). */
  #from = 0;
  /** In the chunk being written: where the key being read began. */
  #keyFrom = 0;

  constructor(name: string, onItem: (text: string) => void) {
    this.#name = name;
    this.#onItem = onItem;
  }

  write(chunk: Uint8Array): void {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const length = bytes.length;
    if (length === 0) return;
    if (this.#offset < HEAD_BYTES) this.#head.push(Buffer.from(bytes.subarray(0, HEAD_BYTES - this.#offset)));
    this.#from = 0;
    this.#keyFrom = 0;
    // An escape that ended the last chunk: this chunk's first byte is the one it escapes.
    let at = this.#inString && this.#escaped ? 1 : 0;
    this.#escaped = false;
    while (at < length) at = this.#inString ? this.#stringEnd(bytes, at) : this.#structure(bytes, at);
    this.#endChunk(bytes);
  }

  /**
   * Past the closing quote of the string being read, an escape's next byte passed over (it may be
   * the next chunk's first); the chunk's length when the string goes on past it.
   */
  #stringEnd(bytes: Buffer, start: number): number {
    const length = bytes.length;
    let at = start;
    let byte = bytes[at] ?? 0;
    while (byte !== QUOTE) {
      at += byte === BACKSLASH ? 2 : 1;
      if (at >= length) {
        this.#escaped = at > length;
        return length;
      }
      byte = bytes[at] ?? 0;
    }
    this.#inString = false;
    if (this.#key !== undefined) {
      this.#key.push(bytes.subarray(this.#keyFrom, at + 1));
      this.#lastKey = keyOf(Buffer.concat(this.#key));
      this.#key = undefined;
    }
    return at + 1;
  }

  /** One byte outside a string; the index of the next. */
  #structure(bytes: Buffer, at: number): number {
    const byte = bytes[at] ?? 0;
    if (!this.#object && !this.#opens(byte, at)) return at + 1;
    if (this.#inItems && this.#depth === 2) {
      if (byte === COMMA || byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) {
        this.#itemEnd(bytes, at, byte);
        return at + 1;
      }
      if (!isSpace(byte)) this.#itemHasText = true;
    }
    this.#token(bytes, at, byte);
    return at + 1;
  }

  /** Whether the text opens here as an object; every byte of a text that is not one is passed over. */
  #opens(byte: number, at: number): boolean {
    if (this.#started) return false;
    // A byte order mark is allowed before the text, as curl and browsers allow it.
    if (isSpace(byte) || (this.#offset + at < 3 && byte === BOM[this.#offset + at])) return false;
    this.#started = true;
    this.#object = byte === OPEN_OBJECT;
    return this.#object;
  }

  /** A comma or a closing bracket in the member's array, at its own depth: the current item ends. */
  #itemEnd(bytes: Buffer, at: number, byte: number): void {
    if (this.#itemHasText) {
      this.#item.push(bytes.subarray(this.#from, at));
      this.#emit();
    } else if (byte === COMMA || this.#commaSeen) this.#rest.push(Buffer.from(','));
    this.#item = [];
    this.#itemHasText = false;
    if (byte === COMMA) {
      this.#commaSeen = true;
      this.#from = at + 1;
      return;
    }
    // The closing bracket goes to `rest`, whichever it is: a wrong one fails there.
    this.#from = at;
    this.#inItems = false;
    this.#depth = 1;
  }

  /** A quote, a bracket, or at depth 1 a comma or a colon: where strings, keys and the member's array begin. */
  #token(bytes: Buffer, at: number, byte: number): void {
    if (byte === QUOTE) {
      this.#inString = true;
      if (this.#depth === 1 && this.#keyNext) {
        this.#keyNext = false;
        this.#key = [];
        this.#keyFrom = at;
      }
    } else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) {
      this.#depth++;
      if (this.#depth === 1) this.#keyNext = true;
      if (this.#memberValueNext && byte === OPEN_ARRAY && this.#depth === 2) {
        this.#itemsStart(bytes, at);
        return;
      }
    } else if (byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) {
      this.#depth--;
    } else if (this.#depth === 1 && byte === COMMA) {
      this.#keyNext = true;
    } else if (this.#depth === 1 && byte === COLON) {
      this.#memberValueNext = this.#lastKey === this.#name;
      return;
    }
    if (this.#memberValueNext && !isSpace(byte)) this.#memberValueNext = false;
  }

  /** The member's array opens at `at`: what came before it goes to `rest`, what follows is items. */
  #itemsStart(bytes: Buffer, at: number): void {
    this.#memberValueNext = false;
    this.#flush(bytes, this.#from, at + 1);
    this.#from = at + 1;
    this.#inItems = true;
    this.#commaSeen = false;
    this.#arrays++;
  }

  #endChunk(bytes: Buffer): void {
    const length = bytes.length;
    if (this.#key !== undefined) this.#key.push(Buffer.from(bytes.subarray(this.#keyFrom)));
    // An item's bytes are copied only when it goes on past this chunk, so no chunk is kept.
    if (this.#inItems) {
      if (this.#from < length) this.#item.push(Buffer.from(bytes.subarray(this.#from)));
    } else this.#flush(bytes, this.#from, length);
    this.#offset += length;
  }

  /** How many times the member held an array: JSON.parse would keep the last, the split gives them all. */
  get arrays(): number {
    return this.#arrays;
  }

  /** The text with the member's array written `[]` (all of it, when there was none), and its first bytes. */
  end(): { rest: string; head: string } {
    // Cut off inside the array: what came of it stays, so that `rest` fails to parse as the text would.
    if (this.#inItems) this.#rest.push(...this.#item);
    return { rest: Buffer.concat(this.#rest).toString('utf8'), head: Buffer.concat(this.#head).toString('utf8') };
  }

  #flush(bytes: Buffer, from: number, to: number): void {
    if (to > from) this.#rest.push(Buffer.from(bytes.subarray(from, to)));
  }

  #emit(): void {
    const parts = this.#item;
    this.#onItem((parts.length === 1 ? (parts[0] ?? Buffer.alloc(0)) : Buffer.concat(parts)).toString('utf8'));
  }
}

const BOM = [0xef, 0xbb, 0xbf];

/** A key's text as JSON.parse reads it (escapes undone); "" never equals a member name worth splitting. */
function keyOf(quoted: Buffer): string {
  const text = quoted.toString('utf8');
  if (!text.includes('\\')) return text.slice(1, -1);
  try {
    const key: unknown = JSON.parse(text);
    return typeof key === 'string' ? key : '';
  } catch {
    return '';
  }
}
