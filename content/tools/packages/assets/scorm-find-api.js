/* global window */
/*
 * SCORM's API discovery (ADL's algorithm): the API object is on a parent window, or on the
 * opener's. A window of another origin throws on any look: it cannot be ours, so the search goes
 * on above it (and in Parcours ends at the bridge page, the package's own origin).
 */
window.PARCOURS_FIND_API = function (name) {
  'use strict';
  function look(win) {
    var tries = 0;
    while (win && tries < 10) {
      try {
        if (win[name]) return win[name];
      } catch {
        // Another origin's window.
      }
      if (win.parent === win) break;
      win = win.parent;
      tries += 1;
    }
    return null;
  }
  var found = look(window);
  if (!found && window.opener) {
    try {
      found = look(window.opener);
    } catch {
      found = null;
    }
  }
  return found;
};
