// Settings from `sst shell`, for scripts run against a deployed stage: it passes each linked
// resource as SST_RESOURCE_<Name>, a JSON object of its properties. A setting already set wins.
const FROM_SST: [resource: string, property: string, setting: string][] = [
  ['Table', 'name', 'TABLE_NAME'],
  ['Jobs', 'url', 'JOBS_QUEUE_URL'],
  ['Email', 'url', 'EMAIL_QUEUE_URL'],
  ['AppSecret', 'value', 'APP_SECRET'],
  ['SmtpUrl', 'value', 'SMTP_URL'],
  ['Router', 'url', 'PUBLIC_URL'],
];

export function settingsFromSstShell(): void {
  for (const [resource, property, setting] of FROM_SST) {
    const raw = process.env[`SST_RESOURCE_${resource}`];
    if (!raw || process.env[setting]) continue;
    const value = (JSON.parse(raw) as Record<string, unknown>)[property];
    if (typeof value === 'string') process.env[setting] = value;
  }
}
