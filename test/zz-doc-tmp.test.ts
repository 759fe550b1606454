import { it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { createTestApp, ADMIN_KEY } from './support/app.ts';
it('doc', async () => {
  const t = await createTestApp();
  const res = await t.app.inject({ method: 'GET', url: '/v1/openapi.json' });
  writeFileSync('/tmp/openapi.json', JSON.stringify(JSON.parse(res.body), null, 2));
  const e = await t.app.inject({
    method: 'GET',
    url: '/v1/admin/leads/xx',
    headers: { authorization: `Bearer ${ADMIN_KEY}` },
  });
  console.log('ERR', e.statusCode, e.body, e.headers['content-type']);
  await t.close();
});
