import { clearOperatorCookie, operatorToken, setOperatorCookie } from '../../api/operator.ts';
import { type PreSessionAstro, type SignInDoor, type SignInOutcome, signInWithCode, signInWithPassword } from '../../console/actions/sign-in.ts';
import { operatorSecondFactor, operatorSignIn } from '../../domain/operators/accounts.ts';

/** The operator's sign-in: the console's forms and rules (src/console/actions/sign-in.ts), with the operator's accounts and cookie. */
export const operatorDoor: SignInDoor = {
  base: '/operator',
  refusedPassword: 'The email or password is not right. Check both and try again. After many failed sign-ins an account is locked for a while.',
  token: operatorToken,
  setCookie: setOperatorCookie,
  clearCookie: clearOperatorCookie,
  password: operatorSignIn,
  code: operatorSecondFactor,
};

export const operatorPasswordSignIn = (astro: PreSessionAstro, next: string): Promise<SignInOutcome | Response> =>
  signInWithPassword(astro, next, operatorDoor);
export const operatorCodeSignIn = (astro: PreSessionAstro, next: string): Promise<SignInOutcome | Response> => signInWithCode(astro, next, operatorDoor);
