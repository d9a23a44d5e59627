import { DomainError, invalidFields } from '../errors.ts';
import { passwordProblems } from './passwords.ts';

/**
 * Confirming who is at the keyboard before a sensitive change (a new password, new recovery codes,
 * two-step sign-in off), for console users and operators alike: what they must give, and the words
 * of a refusal.
 */
export interface IdentityProof {
  password: string;
  passwordField: string;
  code?: string;
  codeField?: string;
}

/** The failed proof's refusal: the account locked by it, the password wrong, or the code wrong. */
export function proofRefusal(outcome: { kind: 'locked'; until: Date } | { kind: 'wrong'; passwordRight: boolean }, proof: IdentityProof): DomainError {
  if (outcome.kind === 'locked') {
    return new DomainError('ER.01.05', 'Account locked', {
      messages: {
        [proof.passwordField]: [
          `too many wrong passwords or codes: your account is locked until ${outcome.until.toISOString().slice(11, 16)} UTC and every session of it is signed out`,
        ],
      },
    });
  }
  if (!outcome.passwordRight) return invalidFields({ [proof.passwordField]: ['is not your current password'] });
  return invalidFields({ [proof.codeField ?? 'code']: ['is not the current code from your authenticator app'] });
}

/** A new password's own checks, before the current one is: strong enough, new, typed twice the same. */
export async function assertNewPassword(input: { current: string; password: string; confirm: string }, email: string): Promise<void> {
  const problems = await passwordProblems(input.password, email);
  if (problems.length > 0) throw invalidFields({ password: problems });
  if (input.password === input.current) throw invalidFields({ password: ['must differ from your current password'] });
  if (input.password !== input.confirm) throw invalidFields({ confirm: ['does not match the new password'] });
}
