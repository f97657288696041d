/** A PNG of `bytes` bytes (its signature and header, then filler varied by `n`). */
export const png = (n: number, bytes = 64) =>
  Buffer.concat([Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'), Buffer.alloc(bytes - 16, n % 251)]);
