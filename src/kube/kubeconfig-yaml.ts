// A kubeconfig's text as kubectl reads it. client-go's Load (k8s.io/client-go/tools/clientcmd/loader.go,
// `Load`) decodes through apimachinery's YAML serializer (pkg/runtime/serializer/json, yaml: true),
// which is sigs.k8s.io/yaml's YAMLToJSON over its fork of go-yaml v2 (sigs.k8s.io/yaml/goyaml.v2,
// resolve.go): YAML 1.1 scalars, so `insecure-skip-tls-verify: yes` (or y, on) is true and 0755 is
// octal, but no base-60 numbers and timestamps kept as text. The JSON is then decoded by
// encoding/json into clientcmd/api/v1's Config, which refuses a value of the wrong type for its field:
// a context named `y` (a bool) is `json: cannot unmarshal bool into Go struct field
// NamedContext.contexts.name of type string` (kubectl 1.32, tried). client-node reads YAML 1.2
// (js-yaml), where `yes` is a string and `y` a name: so the text is read here, once, and client-node
// is handed the JSON.
import { yamlLibrary } from '../chunk.ts';

/** The Go type of a field of clientcmd/api/v1 (types.go), as encoding/json names it in an error. */
type Shape = 'string' | 'bool' | '[]uint8' | 'any' | { struct: string; fields: Record<string, Shape> } | { list: Shape } | { map: Shape };

const extensions: Shape = { list: { struct: 'NamedExtension', fields: { name: 'string', extension: 'any' } } };

const CONFIG: Shape = {
  struct: 'Config',
  fields: {
    kind: 'string',
    apiVersion: 'string',
    'current-context': 'string',
    preferences: { struct: 'Preferences', fields: { colors: 'bool', extensions } },
    extensions,
    clusters: {
      list: {
        struct: 'NamedCluster',
        fields: {
          name: 'string',
          cluster: {
            struct: 'Cluster',
            fields: {
              server: 'string',
              'tls-server-name': 'string',
              'insecure-skip-tls-verify': 'bool',
              'certificate-authority': 'string',
              'certificate-authority-data': '[]uint8',
              'proxy-url': 'string',
              'disable-compression': 'bool',
              extensions,
            },
          },
        },
      },
    },
    users: {
      list: {
        struct: 'NamedAuthInfo',
        fields: {
          name: 'string',
          user: {
            struct: 'AuthInfo',
            fields: {
              'client-certificate': 'string',
              'client-certificate-data': '[]uint8',
              'client-key': 'string',
              'client-key-data': '[]uint8',
              token: 'string',
              tokenFile: 'string',
              as: 'string',
              'as-uid': 'string',
              'as-groups': { list: 'string' },
              'as-user-extra': { map: { list: 'string' } },
              username: 'string',
              password: 'string',
              'auth-provider': { struct: 'AuthProviderConfig', fields: { name: 'string', config: { map: 'string' } } },
              exec: {
                struct: 'ExecConfig',
                fields: {
                  command: 'string',
                  args: { list: 'string' },
                  env: { list: { struct: 'ExecEnvVar', fields: { name: 'string', value: 'string' } } },
                  apiVersion: 'string',
                  installHint: 'string',
                  provideClusterInfo: 'bool',
                  interactiveMode: 'string',
                },
              },
              extensions,
            },
          },
        },
      },
    },
    contexts: {
      list: {
        struct: 'NamedContext',
        fields: {
          name: 'string',
          context: { struct: 'Context', fields: { cluster: 'string', user: 'string', namespace: 'string', extensions } },
        },
      },
    },
  },
};

/** A kubeconfig kubectl would not load, with the words after `error loading config file "F": `. */
export class KubeconfigTextError extends Error {}

/** encoding/json's name for a JSON value's kind (UnmarshalTypeError.Value). */
function jsonKind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return 'number';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'string';
  return 'object';
}

function typeName(shape: Shape): string {
  if (typeof shape === 'string') return shape === 'any' ? 'interface {}' : shape;
  if ('struct' in shape) return `v1.${shape.struct}`;
  if ('list' in shape) return `[]${typeName(shape.list)}`;
  return `map[string]${typeName(shape.map)}`;
}

/**
 * The first value of the wrong type, in the order encoding/json meets them (object keys sorted, as
 * YAMLToJSON's json.Marshal of a Go map writes them), in its words; null if every value fits. A
 * null fits anything (json leaves the field as it was).
 */
function firstMismatch(value: unknown, shape: Shape, path: string[], owner: string): string | null {
  if (value === null || value === undefined || shape === 'any') return null;
  const wrong = (): string =>
    `json: cannot unmarshal ${jsonKind(value)} into Go ${owner === '' ? `value of type ${typeName(shape)}` : `struct field ${owner}.${path.join('.')} of type ${typeName(shape)}`}`;
  if (shape === 'string' || shape === '[]uint8') return typeof value === 'string' ? null : wrong();
  if (shape === 'bool') return typeof value === 'boolean' ? null : wrong();
  if ('list' in shape) {
    if (!Array.isArray(value)) return wrong();
    for (const item of value) {
      const found = firstMismatch(item, shape.list, path, owner);
      if (found !== null) return found;
    }
    return null;
  }
  if (typeof value !== 'object' || Array.isArray(value)) return wrong();
  const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [key, item] of entries) {
    const field = 'map' in shape ? shape.map : shape.fields[key];
    if (field === undefined) continue;
    const found = firstMismatch(item, field, [...path, key], 'map' in shape ? owner : shape.struct);
    if (found !== null) return found;
  }
  return null;
}

/**
 * Parses kubeconfig text as kubectl does (see the top of this file) into the JSON document client-go
 * would decode; KubeconfigTextError with kubectl's words for what it would not load.
 */
export function parseKubeconfigText(text: string): Record<string, unknown> {
  const { parse } = yamlLibrary();
  let doc: unknown;
  try {
    doc = parse(text, {
      version: '1.1',
      // go-yaml v2 leaves base-60 numbers (1:30) and timestamps as text when decoding into interface{}.
      customTags: (tags) => tags.filter((tag) => typeof tag === 'string' || (tag.tag !== 'tag:yaml.org,2002:timestamp' && tag.format !== 'TIME')),
      // map keys that YAML 1.1 resolves (y: as true) are written as JSON's text of them, as YAMLToJSON does
      mapAsMap: false,
      uniqueKeys: false,
    });
  } catch (error) {
    // kubectl's wording differs (go-yaml's `yaml: line 6: did not find expected key`); the line is what helps.
    throw new KubeconfigTextError(`yaml: ${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)}`); // kubectl's wording: go-yaml's prefix (go-yaml yaml.go:308 failf)
  }
  if (doc === null || doc === undefined) return {};
  const mismatch = firstMismatch(doc, CONFIG, [], '');
  if (mismatch !== null) throw new KubeconfigTextError(mismatch);
  return doc as Record<string, unknown>;
}
