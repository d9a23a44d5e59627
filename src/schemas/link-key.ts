import { z } from 'zod';

/** Every link key starts with this, so it is told from an API token at a glance (and by paylink). */
export const LINK_KEY_PREFIX = 'pk_link_';

/** A link key named by a seed: the prefix, then at least 32 URL-safe characters (use `pk_link_` + 32 random bytes, base64url). */
export const linkKeySchema = z
  .string()
  .regex(/^pk_link_[A-Za-z0-9_-]{32,200}$/, { error: 'must be pk_link_ followed by 32 to 200 letters, digits, - or _ (e.g. 32 random bytes, base64url)' });
