// Templates of event messages and object names: the parts that differ between siblings masked, so
// "0/3 nodes are available: 3 Insufficient cpu" from fifty Pods compares equal, and so do the Pods
// of one ReplicaSet (`web-5d4f7c9b8-x2k4q` -> `web-<hash>-<id>`). The placeholders are tokens, not
// English; they appear verbatim in `-o json`.

// Generated names: apimachinery's rand.String and SafeEncodeString draw from this alphabet, without
// vowels or 0, 1, 3 (k8s.io/apimachinery/pkg/util/rand/rand.go). A generateName suffix is 5 of them
// (names.SimpleNameGenerator); a pod-template-hash is SafeEncodeString of a uint32, up to 10 of them
// (pkg/controller/controller_utils.go ComputeHash).
const SAFE = '[bcdfghjklmnpqrstvwxz2456789]';
const ID = `${SAFE}{5}`;
const HASH = `${SAFE}{6,10}`;

const UID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const IPV4 = /(?<![\w.])\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?(?![\w.])/g;
// Two or more colon groups of hex (IPv6, also a MAC address or a clock time: all differ between siblings).
const IPV6 = /(?<![\w:])(?:[0-9a-f]{0,4}:){2,7}[0-9a-f]{1,4}(?![\w:])/gi;
const HASH_AND_ID = new RegExp(`(?<=[a-z0-9])-${HASH}-${ID}(?![-a-z0-9])`, 'g');
const ID_SUFFIX = new RegExp(`(?<=[a-z0-9])-${ID}(?![-a-z0-9])`, 'g');
// A hash alone (a ReplicaSet's name) must hold a digit: a run of consonants alone is too often a word.
const HASH_SUFFIX = new RegExp(`(?<=[a-z0-9])-(?=${SAFE}*\\d)${HASH}(?![-a-z0-9])`, 'g');
// Go's time.Duration.String (5m0s, 1.5s, 812ms) and humanised ages (3d, 2h).
const DURATION = /(?<![\w.])(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h|d))+(?![\w.])/g;
// Image digests, container ids, event-name suffixes: hex with at least one digit and one letter.
const HEX = /(?<![\w])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,}(?![\w])/gi;
const NUMBER = /(?<![A-Za-z0-9])\d+(?:\.\d+)?(?![A-Za-z0-9])/g;

/** The nine passes in order, each pattern's matches made its placeholder: what messageTemplate does, bar the passes it skips. */
export const MESSAGE_PASSES: readonly (readonly [RegExp, string])[] = [
  [UID, '<uid>'],
  [IPV4, '<ip>'],
  [IPV6, '<ip>'],
  [HASH_AND_ID, '-<hash>-<id>'],
  [HASH_SUFFIX, '-<hash>'],
  [ID_SUFFIX, '-<id>'],
  [DURATION, '<duration>'],
  [HEX, '<hash>'],
  [NUMBER, '<n>'],
];

/** A message with what differs between siblings masked: uids, IPs, generated names, durations, hashes, numbers. */
export function messageTemplate(message: string): string {
  // A pass whose pattern needs a character the message lacks is skipped: every pattern but IPV6
  // needs a digit or a '-', and no placeholder brings a digit, '-', '.' or ':' that was not there.
  const digit = /\d/.test(message);
  const dash = message.includes('-');
  let t = message;
  if (dashesFiveApart(message)) t = t.replace(UID, '<uid>');
  if (digit && message.includes('.')) t = t.replace(IPV4, '<ip>');
  if (message.includes(':')) t = t.replace(IPV6, '<ip>');
  if (dash) t = t.replace(HASH_AND_ID, '-<hash>-<id>').replace(HASH_SUFFIX, '-<hash>').replace(ID_SUFFIX, '-<id>');
  if (digit) t = t.replace(DURATION, '<duration>').replace(HEX, '<hash>').replace(NUMBER, '<n>');
  return t;
}

/**
 * Whether two '-' stand five apart, as in every uid (8-4-4-4-12). The uid pass is the slowest of
 * the nine (it tries eight hex digits wherever a hex letter stands); most messages cannot hold one.
 */
function dashesFiveApart(message: string): boolean {
  for (let i = message.indexOf('-'); i !== -1; i = message.indexOf('-', i + 1)) if (message.charCodeAt(i + 5) === 45) return true;
  return false;
}

const NAME_HASH_AND_ID = new RegExp(`-${HASH}-${ID}$`);
const NAME_ID = new RegExp(`-${ID}$`);
const NAME_HASH = new RegExp(`-(?=${SAFE}*\\d)${HASH}$`);
// A StatefulSet's ordinal (web-0), a CronJob's Job (scheduled time in minutes: nightly-29012345).
const NAME_NUMBER = /-\d+$/;

/** An object name with its generated suffix masked: what the siblings of one owner share. */
export function nameTemplate(name: string): string {
  if (NAME_HASH_AND_ID.test(name)) return name.replace(NAME_HASH_AND_ID, '-<hash>-<id>');
  if (NAME_NUMBER.test(name)) return name.replace(NAME_NUMBER, '-<n>');
  if (NAME_HASH.test(name)) return name.replace(NAME_HASH, '-<hash>');
  if (NAME_ID.test(name)) return name.replace(NAME_ID, '-<id>');
  return name;
}

/** A message's and a name's template, each text templated once and each distinct template held once. */
export interface Templates {
  name: (name: string) => string;
  message: (message: string) => string;
}

/** Messages templated before judging whether they repeat enough (a quarter) to be worth remembering. */
const MESSAGE_SAMPLE = 1000;

/**
 * Templates shared by the passes of one account (its groups, src/core/grouping.ts, and its families,
 * src/core/families.ts): 20,000 events hold up to 20,000 distinct messages, a template is nine regex
 * passes, and each pass's text is a new string. Made once per text, and kept once per distinct
 * template, so 20,000 messages of a few hundred templates keep a few hundred template strings.
 * Messages that do not repeat (pod names, numbers, durations in each: issue 27's distinct messages)
 * are no longer remembered once a first sample found few repeats: a map of 20,000 texts asked once
 * each cost more than the passes themselves, and grew with every event.
 */
export function templatesOnce(make: Templates = { name: nameTemplate, message: messageTemplate }): Templates {
  const once = (template: (text: string) => string, sample: number): ((text: string) => string) => {
    const made = new Map<string, string>();
    const distinct = new Map<string, string>();
    let asked = 0;
    let repeated = 0;
    return (text) => {
      const remember = asked < sample || repeated * 4 >= asked;
      if (remember) {
        asked += 1;
        const known = made.get(text);
        if (known !== undefined) {
          repeated += 1;
          return known;
        }
      }
      const fresh = template(text);
      let t = distinct.get(fresh);
      if (t === undefined) distinct.set(fresh, (t = fresh));
      if (remember) made.set(text, t);
      return t;
    };
  };
  // Names always: a namespace's events name a few hundred objects, each many times.
  return { name: once(make.name, Infinity), message: once(make.message, MESSAGE_SAMPLE) };
}
