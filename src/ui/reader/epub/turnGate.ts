/*
 * Page turns one at a time. A held arrow key repeats about thirty times a second, faster than the
 * navigator loads a chapter; every turn asked for while one was under way built another frame the
 * navigator then lost track of ("Trying to use frame when it doesn't exist"): after a few seconds of
 * a held key, 17 frames of chapters sat in the page and in memory. A turn asked for while one is
 * under way is dropped (the key goes on repeating, so turning goes on as fast as the book allows).
 */

/** A turn the navigator never answers (a frame gone, a chapter that failed to load) must not stop every later one. */
const NO_ANSWER_MS = 5000;

export interface TurnGate {
  /**
   * Starts `turn` unless one is under way (false then). `turn` gets the function to call once the
   * navigator has answered.
   */
  turn(start: (finished: () => void) => void): boolean;
}

export function createTurnGate(noAnswerMs = NO_ANSWER_MS): TurnGate {
  let current: symbol | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return {
    turn(start) {
      if (current !== null) return false;
      const token = Symbol('turn');
      current = token;
      timer = setTimeout(() => {
        console.warn('A page turn got no answer from the reader; later turns go on');
        if (current === token) current = null;
      }, noAnswerMs);
      start(() => {
        if (current !== token) return;
        clearTimeout(timer);
        current = null;
      });
      return true;
    },
  };
}
