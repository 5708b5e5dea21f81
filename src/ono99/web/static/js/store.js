// @ts-check
// A page's one state, changed only by its reducer (companion-state.js, table-state.js):
// `get` reads it, `dispatch` replaces it by the reducer's answer to an action. Drawing is
// the caller's: nothing here touches the page.

/**
 * @template S, A
 * @typedef {{get: () => S, dispatch: (action: A) => S}} Store
 */

/**
 * @template S, A
 * @param {(state: S, action: A) => S} reduce @param {S} initial @returns {Store<S, A>}
 */
export function createStore(reduce, initial) {
  let current = initial;
  return {
    get: () => current,
    dispatch: (action) => {
      current = reduce(current, action);
      return current;
    },
  };
}
