// kubectl's connection flags as typed values, apart from the other common options: completion's
// lookups read them before any verb is compiled (src/chunk.ts verbsModule).
import type { ConnectionOverrides } from '../core/connection.ts';
import { str } from './raw.ts';
import type { RawOptions } from './raw.ts';

/** kubectl's global connection flags; an empty value counts as not given, as in clientcmd. */
export function parseConnectionOverrides(raw: RawOptions): ConnectionOverrides {
  const o: ConnectionOverrides = {};
  const set = <K extends keyof ConnectionOverrides>(key: K, value: ConnectionOverrides[K] | undefined): void => {
    if (value !== undefined && value !== '') o[key] = value;
  };
  set('server', str(raw, 'server'));
  set('token', str(raw, 'token'));
  set('user', str(raw, 'user'));
  set('cluster', str(raw, 'cluster'));
  set('certificateAuthority', str(raw, 'certificateAuthority'));
  set('clientCertificate', str(raw, 'clientCertificate'));
  set('clientKey', str(raw, 'clientKey'));
  if (raw.insecureSkipTlsVerify === true) o.insecureSkipTlsVerify = true;
  set('tlsServerName', str(raw, 'tlsServerName'));
  if (raw.disableCompression === true) o.disableCompression = true;
  set('as', str(raw, 'as'));
  const groups = Array.isArray(raw.asGroup) ? (raw.asGroup as string[]) : undefined;
  if (groups?.length) o.asGroups = groups;
  set('asUid', str(raw, 'asUid'));
  if (o.server !== undefined && !/^https?:\/\//.test(o.server)) {
    // kubectl accepts host:port and means https
    o.server = `https://${o.server}`;
  }
  return o;
}
