import { describe, expect, it } from 'vitest';
import { readDatabaseUrl } from './database-url.ts';

describe('readDatabaseUrl', () => {
  it.each([
    [
      'postgres://u:pw@db1:5432,db2:5433/leadgate?target_session_attrs=read-write',
      ['postgres://u:pw@db1:5432/leadgate', 'postgres://u:pw@db2:5433/leadgate'],
      'read-write',
    ],
    [
      'postgresql://u@db1,db2/leadgate?sslmode=require&target_session_attrs=primary&application_name=g',
      [
        'postgresql://u@db1:5432/leadgate?sslmode=require&application_name=g',
        'postgresql://u@db2:5432/leadgate?sslmode=require&application_name=g',
      ],
      'primary',
    ],
    [
      'postgres://u@[::1]:5433,[fd00::2]/db',
      ['postgres://u@[::1]:5433/db', 'postgres://u@[fd00::2]:5432/db'],
      'any',
    ],
    ['postgres://db1,db2', ['postgres://db1:5432', 'postgres://db2:5432'], 'any'],
    // One host: passed on as it came, less target_session_attrs.
    ['postgres://u@h/db?target_session_attrs=any', ['postgres://u@h/db'], 'any'],
    ['postgres://u@/db?host=/var/run/postgresql', ['postgres://u@/db?host=/var/run/postgresql'], 'any'],
    ['postgres://u%40x:p%2Cw@h:5432/db', ['postgres://u%40x:p%2Cw@h:5432/db'], 'any'],
  ])('When DATABASE_URL is %s, then its hosts are read one by one', (url, hosts, target) => {
    expect(readDatabaseUrl(url)).toEqual({ hosts, target });
  });

  it('When the URL says nothing of the target, then PGTARGETSESSIONATTRS does; the URL wins over it', () => {
    expect(readDatabaseUrl('postgres://a,b/db', 'read-write').target).toBe('read-write');
    expect(readDatabaseUrl('postgres://a,b/db?target_session_attrs=any', 'read-write').target).toBe('any');
    expect(readDatabaseUrl('postgres://a,b/db', '').target).toBe('any');
  });

  it.each([
    ['postgres://a,b/db?target_session_attrs=read-only', /cannot take writes/],
    ['postgres://a,b/db?target_session_attrs=prefer-standby', /cannot take writes/],
    ['postgres://a,,b/db', /empty/],
    ['mysql://a/db', /postgres:\/\//],
  ])('When DATABASE_URL is %s, then it is refused, saying why', (url, why) => {
    expect(() => readDatabaseUrl(url)).toThrow(why);
  });
});
