import pg from 'pg';

/**
 * The PostgreSQL server of DATABASE_URL (the local one by default), with `database` in place of
 * the URL's own: the benches work in a database of their own, created fresh and dropped after.
 */
export function pgUrl(database: string): string {
  const url = new URL(process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  url.pathname = `/${database}`;
  return url.toString();
}

export async function pgRun(databaseUrl: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

const checked = (name: string) => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`invalid database name ${name}`);
  return name;
};

export async function freshDatabase(name: string): Promise<void> {
  await pgRun(pgUrl('postgres'), `drop database if exists ${checked(name)}`);
  await pgRun(pgUrl('postgres'), `create database ${checked(name)}`);
}

export async function dropDatabase(name: string): Promise<void> {
  await pgRun(pgUrl('postgres'), `drop database if exists ${checked(name)} with (force)`);
}
