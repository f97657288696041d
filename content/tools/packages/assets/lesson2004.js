/* global window, document */
/*
 * A reading SCO of the demo course (issue 39): SCORM 2004, opened by the sequencing engine. It
 * says it is completed once read (its page is short), keeps no score, and ends its session when
 * its page goes away, as SCORM asks.
 */
(function () {
  'use strict';
  var api = window.PARCOURS_FIND_API('API_1484_11');
  var notice = document.getElementById('notice');
  if (!api) {
    notice.hidden = false;
    return;
  }
  api.Initialize('');
  api.SetValue('cmi.completion_status', 'completed');
  api.SetValue('cmi.exit', 'normal');
  api.Commit('');
  var ended = false;
  function end() {
    if (ended) return;
    ended = true;
    api.Terminate('');
  }
  window.addEventListener('pagehide', end);
})();
