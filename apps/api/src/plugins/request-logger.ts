import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;
type Bindings = Parameters<FastifyBaseLogger['child']>[0];
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

interface LevelAware {
  isLevelEnabled?(level: string): boolean;
}

// Symbols: the stand-in inherits every name of the pino logger (`bindings()` among them).
const BINDINGS = Symbol('bindings');
const OPTS = Symbol('opts');
const REAL = Symbol('real');

/** A request's stand-in: what its real child would be made of, and that child once made. */
interface Lazy {
  [BINDINGS]: Bindings;
  [OPTS]: ChildOptions;
  [REAL]: FastifyBaseLogger | undefined;
}

function realOf(lazy: Lazy, parent: FastifyBaseLogger): FastifyBaseLogger {
  return (lazy[REAL] ??= parent.child(lazy[BINDINGS], lazy[OPTS]));
}

/**
 * The stand-ins' shared prototype for one parent logger: the level methods and `child`, made
 * once, read the request's bindings from `this`. So a request pays for one small object, where
 * closures made per request cost about 1 µs each time (issue 38 item 4: the bundle's `keepNames`
 * defines the `name` of every named closure as it is made).
 */
function standInPrototype(parent: FastifyBaseLogger): object {
  const levels = parent as FastifyBaseLogger & LevelAware;
  const proto = Object.create(parent) as Record<string, unknown>;
  for (const level of LEVELS) {
    proto[level] = function (this: Lazy, ...args: unknown[]) {
      if (!this[REAL] && !levels.isLevelEnabled?.(level)) return;
      (realOf(this, parent)[level] as (...a: unknown[]) => void)(...args);
    };
  }
  proto.child = function (this: Lazy, bindings: Bindings, opts?: ChildOptions) {
    return realOf(this, parent).child(bindings, opts);
  };
  return proto;
}

/** Fastify hands every request the same root logger: its prototype is kept beside it. */
let lastParent: FastifyBaseLogger | undefined;
let lastPrototype: object | undefined;

/**
 * Fastify gives every request a child logger bound to its id, and pino serialises those
 * bindings when the child is made, whether or not anything is logged. With the level above
 * `info` (production benches, LOG_LEVEL=warn) a normal request logs nothing, so the request gets
 * a stand-in instead: a disabled level stays a no-op, and the first warning or error makes the
 * real child, which carries the request id and the redaction exactly as before. At `info` and
 * below every request logs (incoming, completed), so the child is made as usual.
 */
export const requestLoggerFactory: ChildLoggerFactory = function (logger, bindings, opts) {
  const levels = logger as FastifyBaseLogger & LevelAware;
  if (typeof levels.isLevelEnabled !== 'function' || levels.isLevelEnabled('info'))
    return logger.child(bindings, opts);
  if (logger !== lastParent) {
    lastPrototype = standInPrototype(logger);
    lastParent = logger;
  }
  const lazy = Object.create(lastPrototype!) as Lazy;
  lazy[BINDINGS] = bindings;
  lazy[OPTS] = opts;
  lazy[REAL] = undefined;
  return lazy as unknown as FastifyBaseLogger;
};
