import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;

const LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'] as const;

interface LevelAware {
  isLevelEnabled?(level: string): boolean;
}

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
  let real: FastifyBaseLogger | undefined;
  const child = () => (real ??= logger.child(bindings, opts));
  const lazy = Object.create(logger) as FastifyBaseLogger;
  for (const level of LEVELS) {
    lazy[level] = (...args: unknown[]) => {
      if (!real && !levels.isLevelEnabled?.(level)) return;
      (child()[level] as (...a: unknown[]) => void)(...args);
    };
  }
  lazy.child = (b, o) => child().child(b, o);
  return lazy;
};
