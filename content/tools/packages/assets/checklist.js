/* global window, document */
/*
 * The cmi5 course's second AU (issue 39): a checklist to read, then "Done" sends completed and
 * terminated through the cmi5 runtime (cmi5.js). Its moveOn is Completed.
 */
(function () {
  'use strict';
  var data = window.PARCOURS_CHECKLIST;
  var main = document.getElementById('checklist');
  var notice = document.getElementById('notice');
  var heading = document.createElement('h1');
  heading.textContent = data.title;
  var list = document.createElement('ul');
  data.items.forEach(function (text) {
    var li = document.createElement('li');
    li.textContent = text;
    list.appendChild(li);
  });
  var done = document.createElement('button');
  done.type = 'button';
  done.textContent = data.done;
  main.append(heading, list, done);
  var runtime = window.PARCOURS_RUNTIME;
  var started = runtime.start().catch(function () {
    return { tracked: false };
  });
  started.then(function (s) {
    if (!s.tracked) {
      notice.hidden = false;
      notice.textContent = data.noLms;
    }
  });
  done.addEventListener('click', function () {
    done.disabled = true;
    started
      .then(function () {
        return runtime.complete();
      })
      .then(
        function () {
          notice.hidden = false;
          notice.textContent = data.thanks;
        },
        function () {
          notice.hidden = false;
          notice.textContent = data.saveFailed;
          done.disabled = false;
        },
      );
  });
  window.addEventListener('pagehide', function () {
    runtime.exit();
  });
})();
