import Bowser from 'bowser';

/** How far a User-Agent is read: a longer one is cut (the audit log keeps at most 500 characters). */
const MAX_USER_AGENT = 500;

/**
 * A session's browser and system in words, from its User-Agent (bowser, on the server only):
 * "Chrome 131 on Windows 10", "Safari 17 on iPhone (iOS 17.4)", "Firefox 133 on Linux".
 * Unknown or missing → an honest "Unknown browser"; the raw string stays for a title attribute.
 */
export function browserInWords(userAgent: string | null): string {
  const ua = userAgent?.trim().slice(0, MAX_USER_AGENT);
  if (!ua) return 'Unknown browser';
  const { browser, os, platform } = Bowser.parse(ua);
  const major = (version: string | undefined) => version?.split('.')[0];
  const name = browser.name ? [browser.name, major(browser.version)].filter(Boolean).join(' ') : 'Unknown browser';
  let system: string | undefined;
  if (os.name === 'Windows') system = os.versionName ? `Windows ${os.versionName}` : 'Windows';
  else if (os.name === 'macOS') system = os.versionName ? `macOS ${os.versionName}` : 'macOS';
  else if (os.name) system = [os.name, os.version].filter(Boolean).join(' ');
  if (system && platform.model && platform.vendor === 'Apple') system = `${platform.model} (${system})`;
  const kind = platform.type === 'mobile' && os.name === 'Android' ? ' (phone)' : platform.type === 'tablet' ? ' (tablet)' : '';
  return system ? `${name} on ${system}${kind}` : `${name}${kind}`;
}
