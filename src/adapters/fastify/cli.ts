/**
 * `fastify start [options] <file>` (fastify-cli, read at its main branch: start.js, args.js):
 * the file's export (`default`, else the module) is registered as a plugin on a server the
 * CLI makes, with `--prefix` / `-x` as its prefix; `--options` / `-o` merges the module's
 * `options` export into the server's options and the plugin's. Arguments after `--` are
 * plugin options; `FASTIFY_*` environment variables are not read here.
 */

/** fastify-cli's options that take a value (args.js CLI_OPTIONS, type 'string'). */
const VALUED_LONG = new Set([
  'port', 'inspect-port', 'body-limit', 'plugin-timeout', 'close-grace-delay', 'trust-proxy-hop', 'log-level', 'address', 'socket', 'prefix',
  'ignore-watch', 'logging-module', 'debug-host', 'lang', 'require', 'import', 'config', 'method', 'trust-proxy-ips', 'follow-watch', 'debug-port',
]);
const VALUED_SHORT: Record<string, string> = { p: 'port', T: 'plugin-timeout', g: 'close-grace-delay', l: 'log-level', a: 'address', s: 'socket', x: 'prefix', L: 'logging-module', r: 'require', i: 'import', c: 'config', I: 'debug-port' };

export interface FastifyStart {
  /** the plugin file, as written (relative to the package directory) */
  file: string;
  prefix: string | null;
  /** `-o`: the module's `options` export applies */
  options: boolean;
}

/** Every `fastify start … <file>` a script command runs (commands joined by `&&`, `||`, `;`, `|`). */
export function fastifyStarts(command: string): FastifyStart[] {
  const out: FastifyStart[] = [];
  for (const part of command.split(/&&|\|\||[;|]/)) {
    const words = part.trim().split(/\s+/).map(unquote);
    const at = words.findIndex((w, i) => (w === 'fastify' || w.endsWith('/fastify')) && words[i + 1] === 'start');
    if (at < 0) continue;
    const start = parseStart(words.slice(at + 2));
    if (start) out.push(start);
  }
  return out;
}

function unquote(w: string): string {
  return /^(['"]).*\1$/.test(w) ? w.slice(1, -1) : w;
}

function parseStart(args: string[]): FastifyStart | null {
  let file: string | null = null;
  let prefix: string | null = null;
  let options = false;
  const set = (name: string, value: string | undefined): void => {
    if (name === 'prefix' && value !== undefined) prefix = value;
  };
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq < 0 ? a.slice(2) : a.slice(2, eq);
      if (VALUED_LONG.has(name)) set(name, eq < 0 ? args[++i] : a.slice(eq + 1));
      else if (name === 'options') options = true;
    } else if (a.startsWith('-') && a.length > 1) {
      // a group of short options; a valued one takes the rest of the word, or the next word
      for (let k = 1; k < a.length; k++) {
        const long = VALUED_SHORT[a[k]!];
        if (long) {
          set(long, k + 1 < a.length ? a.slice(k + 1) : args[++i]);
          break;
        }
        if (a[k] === 'o') options = true;
      }
    } else if (file === null) file = a;
  }
  return file === null ? null : { file, prefix, options };
}
