import { join } from 'node:path';
import type { DemoSource } from './admin/demo.ts';
import type { Config } from './config.ts';
import { GATEWAY_PATH } from './gateway/routes.ts';

/** What a new server tells its operator: where it listens, the admin key, and a working curl line. */
export function printBanner(
  config: Config,
  url: string,
  admin: { key: string; generated: boolean },
  demo: DemoSource | null,
): void {
  // GATEWAY_PATH starts with /v1, which the public base URL already carries.
  const gateway = `${config.port === 0 ? `${url}/v1` : config.publicBaseUrl}${GATEWAY_PATH.slice(3)}`;
  const lines = [
    '',
    `Leadgate is listening on ${url} (${config.databaseUrl ? 'PostgreSQL' : `embedded database in ${config.dataDir}`})`,
    // Shown once, when made: on a later start the key is where the operator keeps it, and standard
    // output often goes to a log (journald, a container's) that must not collect it at every start.
    admin.generated
      ? `Admin API key: ${admin.key}  (generated, saved to ${join(config.dataDir, 'admin.key')})`
      : `Admin API key: ${config.adminApiKey ? 'the one in ADMIN_API_KEY' : `in ${join(config.dataDir, 'admin.key')}`}`,
  ];
  if (demo?.token) {
    lines.push(
      `Demo agent ${demo.agent_id}, lead source ${demo.source_id}`,
      `Demo source token (shown once): ${demo.token}`,
      `Webhook URLs:`,
      `  ${gateway}                  (token in the x-source-token header)`,
      `  ${gateway}/v/${demo.token}`,
      `Try it:`,
      `  curl -s -X POST ${gateway} -H 'content-type: application/json' \\`,
      `    -H 'x-source-token: ${demo.token}' \\`,
      `    -d '{"name":"Jane Doe","phone":"(214) 555-0123","email":"jane@example.com","state":"TX"}'`,
    );
  } else if (demo) {
    // Every start names the demo agent: nearly every command takes --agent <AGENT_ID>.
    lines.push(
      `Demo agent ${demo.agent_id}, lead source ${demo.source_id} (its token was shown on first start)`,
      `  New token: npx leadgate sources regenerate ${demo.source_id}`,
      `Webhook URLs: ${gateway}  and  ${gateway}/v/<TOKEN>`,
    );
  } else {
    lines.push(`Agents and their ids: npx leadgate agents list`);
  }
  lines.push(`Agent console: ${url}/console`);
  if (demo?.login?.password) {
    lines.push(`  Demo login (password shown once): ${demo.login.email} / ${demo.login.password}`);
  } else if (demo?.login) {
    lines.push(
      `  Demo login: ${demo.login.email} (password shown on first start; new one: npx leadgate agents password ${demo.agent_id})`,
    );
  }
  process.stdout.write(`${lines.join('\n')}\n\n`);
}
