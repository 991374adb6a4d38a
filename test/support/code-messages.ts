// What the action can say, read from src/ itself by TypeScript's checker: every message given to an
// error class (its text as the class's constructor makes it), to a log line at warning or info level
// (`warning`, `info`, `notice`, and a callback that ends in one) or to setFailed. A message is its
// text with every part src/ does not write as a hole (`…`): a value, a server's words. Parts written
// elsewhere are followed by what the code means, not by names, so a file or a function moved or
// renamed changes nothing: a helper's returns (`describeProblem(p)`: each case), a constant or a
// table (`ADVICE[code]`: each entry), a parameter (each call's argument, up to three callers out),
// a list (its items and everything pushed onto it), a property (every object that sets it).
// docs/troubleshooting.md is checked against these (test/unit/troubleshooting.test.ts).
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/** A part of a message src/ does not write. */
export const HOLE = '…';
/** How the step says a problem with an input (InputError). */
const INPUT = 'invalid input: ';
export type Kind = 'error' | 'warning' | 'info';

export interface CodeMessage {
  kind: Kind;
  /** Where it is said: `src/pipeline/rerun.ts:168`. */
  at: string;
  /** Every text it can have, unknown parts as HOLE, white space as one space. */
  texts: string[];
}

/** Texts an expression can have; undefined when none can be known (one hole). */
type Texts = string[] | undefined;

/** Parameters bound to a call's arguments (evaluated where the call is), and the parameters met unbound. */
interface Env {
  bound: Map<ts.Node, { expr: ts.Expression | undefined; env: Env }>;
  unbound: ts.Node[];
}
/** What a `push` adds to a list: an item, or (`...x`) the items of another. */
interface Pushed {
  expr: ts.Expression;
  spread: boolean;
}
const fresh = (): Env => ({ bound: new Map(), unbound: [] });

/** More alternatives than this from joining two parts: the larger part is a hole. */
const MAX_TEXTS = 400;
/** More alternatives than this for one expression: it is a hole. */
const MAX_CHOICES = 2000;
/** A function called from more places than this: its parameters stay holes. */
const MAX_CALLERS = 24;
/** How far out a parameter is followed to the callers' arguments. */
const CALLER_DEPTH = 3;
const MAX_DEPTH = 24;

/** `x.p = …`, `x.p ??= …`, `x.p ||= …`. */
const ASSIGNS = new Set([ts.SyntaxKind.EqualsToken, ts.SyntaxKind.QuestionQuestionEqualsToken, ts.SyntaxKind.BarBarEqualsToken]);

const KINDS: Record<string, Kind> = { warning: 'warning', info: 'info', notice: 'info', error: 'error', setFailed: 'error' };

/** The TypeScript files under src/, and `extra` ones (path → text, relative to `root`) as if they were there. */
export function codeMessages(root: string, o: { files?: string[]; extra?: Record<string, string> } = {}): CodeMessage[] {
  const extra = new Map(Object.entries(o.extra ?? {}).map(([p, text]) => [join(root, p), text]));
  const files =
    o.files?.map((f) => join(root, f)) ??
    readdirSync(join(root, 'src'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .map((f) => join(root, 'src', f));
  return new Reader(root, program([...files, ...extra.keys()], extra)).messages();
}

function program(files: string[], extra: Map<string, string>): ts.Program {
  // es5's lib: enough to type src/ for what is read here, and a second of the checker's time rather than four.
  const options: ts.CompilerOptions = {
    lib: ['lib.es5.d.ts'],
    types: [],
    noEmit: true,
    strict: true,
    allowImportingTsExtensions: true,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists } = host;
  host.fileExists = (f) => extra.has(f) || fileExists(f);
  host.getSourceFile = (f, v, ...rest) => {
    const text = extra.get(f);
    return text === undefined ? getSourceFile(f, v, ...rest) : ts.createSourceFile(f, text, v);
  };
  // The project's own modules only: a package's types add time and no message.
  host.resolveModuleNameLiterals = (literals, containing) =>
    literals.map((l) => (l.text.startsWith('.') ? ts.resolveModuleName(l.text, containing, options, host) : { resolvedModule: undefined }));
  return ts.createProgram({ rootNames: files, options, host });
}

const isFunctionLike = (n: ts.Node): n is ts.SignatureDeclaration & { body?: ts.Node } =>
  ts.isFunctionDeclaration(n) ||
  ts.isFunctionExpression(n) ||
  ts.isArrowFunction(n) ||
  ts.isMethodDeclaration(n) ||
  ts.isConstructorDeclaration(n) ||
  ts.isGetAccessorDeclaration(n);

const unwrap = (e: ts.Expression): ts.Expression =>
  ts.isParenthesizedExpression(e) ||
  ts.isAsExpression(e) ||
  ts.isSatisfiesExpression(e) ||
  ts.isNonNullExpression(e) ||
  ts.isAwaitExpression(e)
    ? unwrap(e.expression)
    : e;

/** Every pair of a and b, joined; a hole for the larger side when they would be too many. */
function product(a: string[], b: string[]): string[] {
  if (a.length * b.length > MAX_TEXTS) return a.length >= b.length ? product([HOLE], b) : product(a, [HOLE]);
  return a.flatMap((x) => b.map((y) => x + y));
}

const union = (...all: Texts[]): Texts => {
  if (all.some((t) => t === undefined)) return [...new Set([...all.flatMap((t) => t ?? []), HOLE])];
  const set = [...new Set(all.flatMap((t) => t ?? []))];
  return set.length > MAX_CHOICES ? undefined : set;
};

class Reader {
  readonly #root: string;
  readonly #checker: ts.TypeChecker;
  readonly #sources: ts.SourceFile[];
  #calls: Map<ts.Node, (ts.CallExpression | ts.NewExpression)[]> | undefined;
  #pushes: Map<ts.Node, Pushed[]> | undefined;
  #sets: Map<ts.Node, ts.Expression[]> | undefined;
  /** Nodes being read: a cycle is a hole. */
  readonly #reading = new Set<ts.Node>();
  readonly #known = new Map<ts.Node, Texts>();
  #cuts = 0;

  constructor(root: string, program: ts.Program) {
    this.#root = root;
    this.#checker = program.getTypeChecker();
    this.#sources = program.getSourceFiles().filter((f) => !f.isDeclarationFile && !relative(root, f.fileName).startsWith('..'));
  }

  messages(): CodeMessage[] {
    const out: CodeMessage[] = [];
    for (const sf of this.#sources) {
      const visit = (n: ts.Node): void => {
        const sink = this.#sink(n);
        if (sink !== undefined) {
          const texts = this.#expand(sink.read, CALLER_DEPTH) ?? [HOLE];
          const line = sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1;
          const clean = [...new Set(texts.map((t) => t.replace(/…+/g, HOLE).replace(/\s+/g, ' ').trim()))];
          out.push({ kind: sink.kind, at: `${relative(this.#root, sf.fileName).split('\\').join('/')}:${line}`, texts: clean });
        }
        ts.forEachChild(n, visit);
      };
      visit(sf);
    }
    return out;
  }

  /** What `n` says, when it is a message: a new error, a log line, setFailed. */
  #sink(n: ts.Node): { kind: Kind; read: (env: Env) => Texts } | undefined {
    if (ts.isNewExpression(n)) {
      const cls = this.#classOf(n.expression);
      if (cls === undefined || !this.#isError(cls)) return undefined;
      return { kind: 'error', read: (env) => this.#newMessage(cls, n.arguments ?? ts.factory.createNodeArray(), env, 0) };
    }
    const problem = this.#inputProblem(n);
    if (problem !== undefined) return { kind: 'error', read: (env) => product([INPUT], this.#texts(problem, env, 0) ?? [HOLE]) };
    if (!ts.isCallExpression(n) || n.arguments.length === 0) return undefined;
    const kind = this.#callKind(n.expression, 0);
    const [first] = n.arguments;
    if (kind === undefined || first === undefined) return undefined;
    return { kind, read: (env) => this.#texts(first, env, 0) };
  }

  /**
   * A problem with an input, as zod is told it (the step says it as `invalid input: …`):
   * `ctx.addIssue({ message })`, `.refine(check, message)`, `z.enum(…, { error })`.
   */
  #inputProblem(n: ts.Node): ts.Expression | undefined {
    if (ts.isCallExpression(n) && ts.isPropertyAccessExpression(n.expression)) {
      const [first, second] = n.arguments;
      const name = n.expression.name.text;
      if (name === 'addIssue' && first !== undefined) return this.#property(first, 'message');
      if (name === 'refine' && second !== undefined)
        return this.#property(second, 'message') ?? (ts.isObjectLiteralExpression(second) ? undefined : second);
    }
    if (!ts.isPropertyAssignment(n) || n.name.getText() !== 'error') return undefined;
    const call = n.parent.parent;
    const zod = ts.isCallExpression(call) && ts.isPropertyAccessExpression(call.expression) && call.expression.expression.getText() === 'z';
    if (!zod) return undefined;
    const f = n.initializer;
    return ts.isArrowFunction(f) && !ts.isBlock(f.body) ? f.body : f;
  }

  /** The kind of line a call of `callee` writes: by its name, or a callback that ends in one (each caller's argument). */
  #callKind(callee: ts.Expression, depth: number): Kind | undefined {
    const name = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : '';
    const byName = Object.hasOwn(KINDS, name) ? KINDS[name] : undefined;
    if (byName !== undefined || depth > 3 || !ts.isIdentifier(callee)) return byName;
    const decl = this.#declaration(callee);
    if (decl === undefined) return undefined;
    if (ts.isVariableDeclaration(decl) && decl.initializer !== undefined) return this.#functionKind(decl.initializer, depth + 1);
    if (!ts.isParameter(decl) || !isFunctionLike(decl.parent)) return undefined;
    const index = decl.parent.parameters.indexOf(decl);
    for (const call of this.#callers(decl.parent)) {
      const arg = call.arguments?.[index];
      const kind = arg === undefined ? undefined : this.#functionKind(arg, depth + 1);
      if (kind !== undefined) return kind;
    }
    return undefined;
  }

  /** The kind of line a function value writes with its argument: `(m) => core.warning(m)`. */
  #functionKind(e: ts.Expression, depth: number): Kind | undefined {
    const f = unwrap(e);
    if (ts.isIdentifier(f)) return this.#callKind(f, depth);
    if (!ts.isArrowFunction(f) && !ts.isFunctionExpression(f)) return undefined;
    let kind: Kind | undefined;
    const visit = (n: ts.Node): void => {
      if (kind === undefined && ts.isCallExpression(n)) kind = this.#callKind(n.expression, depth);
      if (kind === undefined) ts.forEachChild(n, visit);
    };
    visit(f.body);
    return kind;
  }

  /**
   * `read` with its parameters bound to each caller's arguments, when it met any unbound: the
   * function whose parameter it met first, each of its calls (the callers' own parameters followed
   * in turn, `depth` times).
   */
  #expand(read: (env: Env) => Texts, depth: number): Texts {
    const env = fresh();
    const first = read(env);
    const [param] = env.unbound;
    const fn = param === undefined ? undefined : ts.findAncestor(param, isFunctionLike);
    if (fn === undefined || depth === 0) return first;
    const calls = this.#callers(fn);
    if (calls.length === 0 || calls.length > MAX_CALLERS) return first;
    return union(...calls.map((call) => this.#expand((outer) => read(this.#bind(fn, call.arguments ?? [], outer)), depth - 1)));
  }

  /** An environment binding `fn`'s parameters (and the names destructured from them) to `args`, read in `outer`. */
  #bind(fn: ts.SignatureDeclaration, args: readonly ts.Expression[], outer: Env): Env {
    const env = fresh();
    fn.parameters.forEach((p, i) => {
      const arg = args[i] ?? p.initializer;
      const where = args[i] === undefined ? env : outer;
      if (ts.isIdentifier(p.name)) env.bound.set(p, { expr: arg, env: where });
      else if (ts.isObjectBindingPattern(p.name))
        for (const el of p.name.elements) {
          const key = (el.propertyName ?? el.name).getText();
          env.bound.set(el, { expr: arg === undefined ? undefined : this.#property(arg, key), env: where });
        }
    });
    return env;
  }

  /** The initializer of property `key` of an object literal `e`. */
  #property(e: ts.Expression, key: string): ts.Expression | undefined {
    const o = unwrap(e);
    if (!ts.isObjectLiteralExpression(o)) return undefined;
    for (const p of o.properties) {
      if (ts.isPropertyAssignment(p) && p.name.getText() === key) return p.initializer;
      if (ts.isShorthandPropertyAssignment(p) && p.name.text === key) return p.name;
    }
    return undefined;
  }

  /** The error's message as its class makes it from `args`: each constructor down to Error's own. */
  #newMessage(cls: ts.ClassLikeDeclaration, args: readonly ts.Expression[], env: Env, depth: number): Texts {
    if (depth > 8) return undefined;
    const parent = this.#parentOf(cls);
    const ctor = cls.members.find(ts.isConstructorDeclaration);
    let next = args;
    let nextEnv = env;
    if (ctor !== undefined) {
      let call: ts.CallExpression | undefined;
      const visit = (n: ts.Node): void => {
        if (ts.isCallExpression(n) && n.expression.kind === ts.SyntaxKind.SuperKeyword) call = n;
        else ts.forEachChild(n, visit);
      };
      if (ctor.body !== undefined) visit(ctor.body);
      if (call === undefined) return undefined;
      next = call.arguments;
      nextEnv = this.#bind(ctor, args, env);
    }
    if (parent === 'Error') return next[0] === undefined ? undefined : this.#texts(next[0], nextEnv, 0);
    return parent === undefined ? undefined : this.#newMessage(parent, next, nextEnv, depth + 1);
  }

  #parentOf(cls: ts.ClassLikeDeclaration): ts.ClassLikeDeclaration | 'Error' | undefined {
    const ext = cls.heritageClauses?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)?.types[0]?.expression;
    if (ext === undefined) return undefined;
    const decl = this.#classOf(ext);
    if (decl !== undefined) return decl;
    return ts.isIdentifier(ext) && ext.text === 'Error' ? 'Error' : undefined;
  }

  #isError(cls: ts.ClassLikeDeclaration): boolean {
    for (let c: ts.ClassLikeDeclaration | 'Error' | undefined = cls, i = 0; c !== undefined && i < 10; i++) {
      if (c === 'Error') return true;
      c = this.#parentOf(c);
    }
    return false;
  }

  #classOf(e: ts.Expression): ts.ClassLikeDeclaration | undefined {
    const decl = ts.isIdentifier(e) ? this.#declaration(e) : undefined;
    return decl !== undefined && ts.isClassLike(decl) && this.#inSources(decl) ? decl : undefined;
  }

  #inSources(n: ts.Node): boolean {
    return this.#sources.includes(n.getSourceFile());
  }

  /** Where an identifier is declared, through imports. */
  #declaration(id: ts.Node): ts.Declaration | undefined {
    // `{ why }`: the variable it takes its value from, not the property it sets.
    let s =
      ts.isShorthandPropertyAssignment(id.parent) && id.parent.name === id
        ? this.#checker.getShorthandAssignmentValueSymbol(id.parent)
        : this.#checker.getSymbolAtLocation(id);
    if (s !== undefined && s.flags & ts.SymbolFlags.Alias) s = this.#checker.getAliasedSymbol(s);
    return s?.declarations?.[0];
  }

  /** The texts `e` can have, where `env` binds parameters. */
  #texts(e: ts.Expression, env: Env, depth: number): Texts {
    if (depth > MAX_DEPTH || this.#reading.has(e)) {
      this.#cuts++;
      return undefined;
    }
    // What an expression can be where no parameter is bound, and none was met, is the same wherever
    // it is asked: kept, unless a cycle or the depth cut it short here.
    const plain = env.bound.size === 0;
    if (plain && this.#known.has(e)) return this.#known.get(e);
    const [met, cuts] = [env.unbound.length, this.#cuts];
    this.#reading.add(e);
    try {
      const texts = this.#read(unwrap(e), env, depth + 1);
      if (plain && env.unbound.length === met && this.#cuts === cuts) this.#known.set(e, texts);
      return texts;
    } finally {
      this.#reading.delete(e);
    }
  }

  #read(e: ts.Expression, env: Env, depth: number): Texts {
    if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return [e.text];
    if (ts.isNumericLiteral(e)) return [e.text];
    if (ts.isTemplateExpression(e)) {
      let out = [e.head.text];
      for (const span of e.templateSpans) {
        out = product(product(out, this.#part(span.expression, env, depth)), [span.literal.text]);
      }
      return out;
    }
    if (ts.isConditionalExpression(e)) return union(this.#texts(e.whenTrue, env, depth), this.#texts(e.whenFalse, env, depth));
    if (ts.isBinaryExpression(e)) return this.#binary(e, env, depth);
    if (ts.isIdentifier(e)) return this.#identifier(e, env, depth);
    if (ts.isPropertyAccessExpression(e)) return this.#propertyAccess(e, env, depth);
    if (ts.isElementAccessExpression(e)) return this.#items(e.expression, env, depth);
    if (ts.isCallExpression(e)) return this.#call(e, env, depth);
    return undefined;
  }

  /**
   * A part of a text: what it can be, or a hole when none of that is words (a value's format, `5m`,
   * `1.5s`, `#12`, an empty or unknown part): a row of the page quotes words, never a format.
   */
  #part(e: ts.Expression, env: Env, depth: number): string[] {
    const texts = this.#texts(e, env, depth);
    if (texts === undefined || texts.every((t) => (t.match(/\p{L}/gu) ?? []).length < 4)) return [HOLE];
    return texts;
  }

  #binary(e: ts.BinaryExpression, env: Env, depth: number): Texts {
    const op = e.operatorToken.kind;
    if (op === ts.SyntaxKind.PlusEqualsToken) return product([HOLE], this.#part(e.right, env, depth));
    if (op === ts.SyntaxKind.PlusToken) {
      // Text joined, not numbers added.
      if (!(this.#checker.getTypeAtLocation(e).flags & ts.TypeFlags.StringLike)) return undefined;
      return product(this.#part(e.left, env, depth), this.#part(e.right, env, depth));
    }
    if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) {
      // `x ?? 'unknown'`: x may hold a value, whatever was found of it.
      const left = this.#texts(e.left, env, depth);
      return union(left?.length === 0 ? undefined : left, this.#texts(e.right, env, depth));
    }
    if (op === ts.SyntaxKind.AmpersandAmpersandToken) return this.#texts(e.right, env, depth);
    return undefined;
  }

  #identifier(e: ts.Identifier, env: Env, depth: number): Texts {
    if (e.text === 'undefined') return [];
    const decl = this.#declaration(e);
    if (decl === undefined) return undefined;
    if (ts.isBindingElement(decl) && !ts.findAncestor(decl, ts.isParameter)) return this.#destructured(decl, depth);
    if (ts.isParameter(decl) || ts.isBindingElement(decl)) {
      const b = env.bound.get(decl);
      if (b === undefined) {
        const param = ts.isParameter(decl) ? decl : ts.findAncestor(decl, ts.isParameter);
        if (param !== undefined) env.unbound.push(param);
        return undefined;
      }
      return b.expr === undefined ? undefined : this.#texts(b.expr, b.env, depth);
    }
    if (ts.isVariableDeclaration(decl)) {
      if (ts.isForOfStatement(decl.parent.parent)) return this.#items(decl.parent.parent.expression, env, depth);
      // A `let`: its first value, or any it is given after; read inside one of those (`message =
      // \`${message}, …\``), what it held before: a hole.
      const values = [...(decl.initializer === undefined ? [] : [decl.initializer]), ...(this.#setters().get(decl) ?? [])];
      if (values.length === 0 || this.#reading.has(decl)) return undefined;
      this.#reading.add(decl);
      try {
        return union(...values.map((v) => this.#texts(v, env, depth)));
      } finally {
        this.#reading.delete(decl);
      }
    }
    return undefined;
  }

  /** `const { message } = readError(…)`: what the property is given, wherever the value's type is made. */
  #destructured(decl: ts.BindingElement, depth: number): Texts {
    const holder = ts.findAncestor(decl, ts.isVariableDeclaration);
    if (holder?.initializer === undefined || !ts.isObjectBindingPattern(decl.parent)) return undefined;
    const key = (decl.propertyName ?? decl.name).getText();
    const literal = this.#property(holder.initializer, key);
    if (literal !== undefined) return this.#texts(literal, fresh(), depth);
    const type = this.#checker.getTypeAtLocation(holder.initializer);
    const declarations = (type.isUnion() ? type.types : [type]).flatMap((t) => t.getProperty(key)?.declarations ?? []);
    return this.#valuesOf(declarations, depth, (x) => this.#texts(x, fresh(), depth));
  }

  #propertyAccess(e: ts.PropertyAccessExpression, env: Env, depth: number): Texts {
    const key = e.name.text;
    const owner = unwrap(e.expression);
    // A parameter bound to an object literal, or a constant one: that object's property.
    if (ts.isIdentifier(owner)) {
      const decl = this.#declaration(owner);
      const b = decl === undefined ? undefined : env.bound.get(decl);
      const literal =
        b?.expr ??
        (decl !== undefined && ts.isVariableDeclaration(decl) && !ts.isForOfStatement(decl.parent.parent) ? decl.initializer : undefined);
      const init = literal === undefined ? undefined : this.#property(literal, key);
      if (init !== undefined) return this.#texts(init, b?.env ?? env, depth);
    }
    return this.#assigned(e.name, depth, (x) => this.#texts(x, fresh(), depth));
  }

  /** What every assignment of the property named at `name` can be: its objects' initializers, its getter's returns, `x.p = …`. */
  #assigned(name: ts.Node, depth: number, read: (e: ts.Expression) => Texts): Texts {
    return this.#valuesOf(this.#checker.getSymbolAtLocation(name)?.declarations, depth, read);
  }

  /** What a property declared at `declarations` is given anywhere in src/. */
  #valuesOf(declarations: readonly ts.Declaration[] | undefined, depth: number, read: (e: ts.Expression) => Texts): Texts {
    const decls = (declarations ?? []).filter((d) => this.#inSources(d));
    if (decls.length === 0) return undefined;
    const values: ts.Expression[] = [];
    for (const d of decls) {
      if (ts.isPropertyAssignment(d)) values.push(d.initializer);
      else if (ts.isShorthandPropertyAssignment(d)) values.push(d.name);
      else if (ts.isGetAccessorDeclaration(d)) values.push(...this.#returns(d));
      else if (ts.isPropertySignature(d) || ts.isPropertyDeclaration(d)) {
        if (ts.isPropertyDeclaration(d) && d.initializer !== undefined) values.push(d.initializer);
        values.push(...(this.#setters().get(d) ?? []));
      } else return undefined;
    }
    if (values.length === 0 || values.length > MAX_CALLERS * 2 || depth > MAX_DEPTH) return undefined;
    return union(...values.map(read));
  }

  /** The items a list (or a table's values) can hold. */
  #items(e: ts.Expression, env: Env, depth: number): Texts {
    const x = unwrap(e);
    if (ts.isArrayLiteralExpression(x))
      return union(
        ...x.elements.map((el) => (ts.isSpreadElement(el) ? this.#items(el.expression, env, depth) : this.#texts(el, env, depth))),
      );
    if (ts.isObjectLiteralExpression(x))
      return union(...x.properties.map((p) => (ts.isPropertyAssignment(p) ? this.#texts(p.initializer, env, depth) : undefined)));
    if (ts.isConditionalExpression(x)) return union(this.#items(x.whenTrue, env, depth), this.#items(x.whenFalse, env, depth));
    if (ts.isBinaryExpression(x) && [ts.SyntaxKind.QuestionQuestionToken, ts.SyntaxKind.BarBarToken].includes(x.operatorToken.kind))
      return union(this.#items(x.left, env, depth), this.#items(x.right, env, depth));
    if (ts.isCallExpression(x) && ts.isPropertyAccessExpression(x.expression)) {
      const method = x.expression.name.text;
      const [f] = x.arguments;
      // A list made from another: what its function returns for each item (the item a hole), or the items kept.
      const fns = (method === 'map' || method === 'flatMap') && f !== undefined ? this.#functionValue(f) : [];
      if (fns.length > 0)
        return union(
          ...fns
            .flatMap((fn) => this.#returns(fn))
            .map((r) => (method === 'map' ? this.#texts(r, fresh(), depth) : this.#items(r, fresh(), depth))),
        );
      if (['filter', 'slice', 'sort', 'concat', 'reverse'].includes(method)) return this.#items(x.expression.expression, env, depth);
    }
    if (ts.isCallExpression(x)) {
      const fns = this.#callees(x);
      return fns.length === 0
        ? undefined
        : union(...fns.flatMap((fn) => this.#returns(fn).map((r) => this.#items(r, this.#bind(fn, x.arguments, env), depth))));
    }
    const name = ts.isPropertyAccessExpression(x) ? x.name : ts.isIdentifier(x) ? x : undefined;
    if (name === undefined || depth > MAX_DEPTH) return undefined;
    const decl = this.#declaration(name);
    if (decl !== undefined && ts.isParameter(decl)) {
      const b = env.bound.get(decl);
      return b?.expr === undefined ? undefined : this.#items(b.expr, b.env, depth + 1);
    }
    const pushed = decl === undefined ? [] : (this.#pushed().get(decl) ?? []);
    const initial =
      decl !== undefined && ts.isVariableDeclaration(decl) && decl.initializer !== undefined
        ? this.#items(decl.initializer, env, depth + 1)
        : ts.isPropertyAccessExpression(x)
          ? this.#assigned(x.name, depth, (v) => this.#items(v, fresh(), depth + 1))
          : undefined;
    return union(
      initial ?? (pushed.length > 0 ? [] : undefined),
      ...pushed.map((p) => (p.spread ? this.#items(p.expr, fresh(), depth + 1) : this.#texts(p.expr, fresh(), depth + 1))),
    );
  }

  #call(e: ts.CallExpression, env: Env, depth: number): Texts {
    // A list joined: each of its sentences (a row quotes one of them); a list of names is a value.
    if (ts.isPropertyAccessExpression(e.expression) && e.expression.name.text === 'join') {
      const items = this.#items(e.expression.expression, env, depth);
      return items?.every((t) => !/\s/.test(t.trim())) ? undefined : items;
    }
    const fns = this.#callees(e);
    const texts =
      fns.length === 0
        ? undefined
        : union(...fns.flatMap((fn) => this.#returns(fn).map((r) => this.#texts(r, this.#bind(fn, e.arguments, env), depth))));
    // Text through a function of text that src/ does not spell out (a scrubber handed in, String):
    // the text it was given.
    const [first] = e.arguments;
    if (first !== undefined && this.#passesText(e) && (texts === undefined || texts.every((t) => t.replace(/…/g, '').trim() === '')))
      return this.#texts(first, env, depth);
    return texts;
  }

  /** A call that takes text and gives text, not a method of the text itself (`text.slice(0, 5)`). */
  #passesText(e: ts.CallExpression): boolean {
    const text = (n: ts.Node): boolean => (this.#checker.getTypeAtLocation(n).flags & ts.TypeFlags.StringLike) !== 0;
    const [first] = e.arguments;
    if (first === undefined || !text(e) || !text(first)) return false;
    return !(ts.isPropertyAccessExpression(e.expression) && text(e.expression.expression));
  }

  /**
   * The functions a call may run, where src/ writes them with a body: the one it names, or for a
   * function an interface declares (`o.readError(…)`, `job.check(…)`) every one src/ gives it.
   */
  #callees(e: ts.CallExpression): (ts.SignatureDeclaration & { body?: ts.Node })[] {
    const decl = this.#checker.getResolvedSignature(e)?.declaration;
    if (decl === undefined || !this.#inSources(decl)) return [];
    if (isFunctionLike(decl)) return decl.body === undefined ? [] : [decl];
    if (!ts.isPropertySignature(decl) && !ts.isMethodSignature(decl) && !ts.isPropertyDeclaration(decl)) return [];
    return (this.#setters().get(decl) ?? []).flatMap((v) => this.#functionValue(v));
  }

  /** The function an expression holds: written there (`(m) => …`), or named (`settingProblem`, a function or a constant arrow). */
  #functionValue(v: ts.Expression): (ts.SignatureDeclaration & { body?: ts.Node })[] {
    const f = unwrap(v);
    if (ts.isArrowFunction(f) || ts.isFunctionExpression(f)) return [f];
    const d = ts.isIdentifier(f) ? this.#declaration(f) : undefined;
    if (d !== undefined && ts.isFunctionDeclaration(d) && d.body !== undefined) return [d];
    const init = d !== undefined && ts.isVariableDeclaration(d) && d.initializer !== undefined ? unwrap(d.initializer) : undefined;
    return init !== undefined && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) ? [init] : [];
  }

  /** What a function returns: its expression body, or every `return` of its own (not of functions inside it). */
  #returns(fn: ts.SignatureDeclaration & { body?: ts.Node }): ts.Expression[] {
    const body = fn.body;
    if (body === undefined) return [];
    if (!ts.isBlock(body)) return [body as ts.Expression];
    const out: ts.Expression[] = [];
    const visit = (n: ts.Node): void => {
      if (ts.isReturnStatement(n) && n.expression !== undefined) out.push(n.expression);
      else if (!isFunctionLike(n)) ts.forEachChild(n, visit);
    };
    visit(body);
    return out;
  }

  /** Every call and `new` of each function src/ declares, by its declaration. */
  #callers(fn: ts.Node): (ts.CallExpression | ts.NewExpression)[] {
    if (this.#calls === undefined) {
      const calls = new Map<ts.Node, (ts.CallExpression | ts.NewExpression)[]>();
      this.#walk((n) => {
        if (!ts.isCallExpression(n) && !ts.isNewExpression(n)) return;
        const decl = this.#checker.getResolvedSignature(n)?.declaration;
        if (decl !== undefined) calls.set(decl, [...(calls.get(decl) ?? []), n]);
      });
      this.#calls = calls;
    }
    return this.#calls.get(fn) ?? [];
  }

  /** What is pushed onto each list, by the list's declaration: `problems.push(…)`, `out.warnings.push(…)`. */
  #pushed(): Map<ts.Node, Pushed[]> {
    if (this.#pushes === undefined) {
      const pushes = new Map<ts.Node, Pushed[]>();
      this.#walk((n) => {
        if (!ts.isCallExpression(n) || !ts.isPropertyAccessExpression(n.expression) || n.expression.name.text !== 'push') return;
        const list = n.expression.expression;
        const decl = this.#declaration(ts.isPropertyAccessExpression(list) ? list.name : list);
        if (decl === undefined) return;
        const items = n.arguments.map((a) => (ts.isSpreadElement(a) ? { expr: a.expression, spread: true } : { expr: a, spread: false }));
        pushes.set(decl, [...(pushes.get(decl) ?? []), ...items]);
      });
      this.#pushes = pushes;
    }
    return this.#pushes;
  }

  /** Every value each declared property (of an interface or a class) is given: in an object literal, or `x.p = …`. */
  #setters(): Map<ts.Node, ts.Expression[]> {
    if (this.#sets === undefined) {
      const sets = new Map<ts.Node, ts.Expression[]>();
      const add = (decls: readonly ts.Declaration[] | undefined, value: ts.Expression): void => {
        for (const d of decls ?? []) sets.set(d, [...(sets.get(d) ?? []), value]);
      };
      this.#walk((n) => {
        if (ts.isPropertyAssignment(n) || ts.isShorthandPropertyAssignment(n)) {
          // The object's type where it is used: each member of a union that has the property (`{ act: 'new'; why }`).
          const type = this.#checker.getContextualType(n.parent as ts.ObjectLiteralExpression);
          const key = ts.isPropertyAssignment(n) ? n.name.getText() : n.name.text;
          const types = type === undefined ? [] : type.isUnion() ? type.types : [type];
          for (const t of types) add(t.getProperty(key)?.declarations, ts.isPropertyAssignment(n) ? n.initializer : n.name);
        } else if (
          ts.isBinaryExpression(n) &&
          (ASSIGNS.has(n.operatorToken.kind) || n.operatorToken.kind === ts.SyntaxKind.PlusEqualsToken)
        ) {
          const target = ts.isPropertyAccessExpression(n.left) ? n.left.name : ts.isIdentifier(n.left) ? n.left : undefined;
          // `message += …`: what it held, then this.
          if (target !== undefined)
            add(
              this.#checker.getSymbolAtLocation(target)?.declarations,
              n.operatorToken.kind === ts.SyntaxKind.PlusEqualsToken ? n : n.right,
            );
        }
      });
      this.#sets = sets;
    }
    return this.#sets;
  }

  #walk(f: (n: ts.Node) => void): void {
    const visit = (n: ts.Node): void => {
      f(n);
      ts.forEachChild(n, visit);
    };
    for (const sf of this.#sources) visit(sf);
  }
}
