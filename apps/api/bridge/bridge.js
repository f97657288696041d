/*
 * The package bridge (issue 31, decision 0048, docs/api.md "Packages"). Served on the packages
 * origin at /launch/<key>, framed by the lesson player (the app origin), with the launch's secret
 * in the URL fragment. It hosts the package's launch file in an inner frame, gives a SCORM package
 * its runtime object (scorm-again's `API` for 1.2, `API_1484_11` for 2004) whose commits go to
 * this origin's /runtime calls, and talks to the player only by window messages, checking the
 * origin both ways:
 *   to the player    { source: 'parcours-package', type: 'ready' | 'committed' | 'terminated' | 'error' | 'refused' }
 *   from the player  { source: 'parcours-player', type: 'terminate' }
 * Plain browser JavaScript, no build step: what runs here is what is in this file.
 */
/* global window, document, location, history, XMLHttpRequest */
(function () {
  'use strict';
  var root = document.documentElement;
  var appOrigin = root.getAttribute('data-app-origin');
  var kind = root.getAttribute('data-kind');
  var title = root.getAttribute('data-title') || '';
  var key = location.pathname.split('/').pop();
  var secret = location.hash.slice(1);
  // The secret leaves the address at once: not kept in the history, not in any later Referer.
  history.replaceState(null, '', location.pathname);
  var base = '/runtime/' + key;
  var scorm = kind === 'scorm12' || kind === 'scorm2004';
  var api = null;
  var frame = null;
  var sequence = 0;
  var terminatedSent = false;
  var closing = false;
  var progress = 0;

  function tell(type, extra) {
    if (window.parent === window || !appOrigin) return;
    var message = { source: 'parcours-package', type: type };
    if (extra) for (var k in extra) message[k] = extra[k];
    window.parent.postMessage(message, appOrigin);
  }
  function terminated() {
    if (terminatedSent) return;
    terminatedSent = true;
    tell('terminated');
  }
  function call(method, path) {
    return fetch(base + path, {
      method: method,
      headers: { Authorization: 'Bearer ' + secret },
      cache: 'no-store',
      credentials: 'omit',
    }).then(function (res) {
      if (!res.ok) throw new Error(String(res.status));
      return res.json();
    });
  }

  // The catalogue key (`quota.*`) of a refusal's JSON:API error, or a general one.
  function refusalKey(text) {
    try {
      var detail = JSON.parse(text).errors[0].detail;
      if (typeof detail === 'string' && /^quota\.[A-Za-z]+$/.test(detail)) return detail;
    } catch {
      // Not the API's error document: the general key.
    }
    return 'quota.commitsPerMinute';
  }

  // A SCORM commit. Synchronous, as SCORM wants (the SCO reads its result); a page going away
  // may refuse a synchronous request: then a beacon, the secret in its body (no headers there).
  var failure = kind === 'scorm2004' ? 391 : 101;
  function commit(params, immediate) {
    sequence += 1;
    var cmi = params && typeof params === 'object' && params.cmi ? params.cmi : params;
    var body = { cmi: cmi, sequence: sequence, terminate: !!immediate };
    try {
      var xhr = new XMLHttpRequest();
      xhr.open('POST', base + '/commit', false);
      xhr.setRequestHeader('Content-Type', 'application/json');
      xhr.setRequestHeader('Authorization', 'Bearer ' + secret);
      xhr.send(JSON.stringify(body));
      if (xhr.status !== 200) {
        // A save refused for the learner's write budget (issue 36): the player says so.
        if (xhr.status === 429 || xhr.status === 413)
          tell('refused', { detail: refusalKey(xhr.responseText) });
        return { result: 'false', errorCode: failure };
      }
      tell('committed');
      if (immediate) terminated();
      return { result: 'true', errorCode: 0 };
    } catch {
      body.auth = secret;
      var sent = navigator.sendBeacon(
        base + '/commit',
        new Blob([JSON.stringify(body)], { type: 'text/plain' }),
      );
      return { result: sent ? 'true' : 'false', errorCode: sent ? 0 : failure };
    }
  }
  var httpService = {
    processHttpRequest: function (_url, params, immediate) {
      return commit(params, immediate);
    },
    updateSettings: function () {},
  };

  function state(method) {
    return api && typeof api[method] === 'function' ? api[method]() : false;
  }

  // The player closes the package: the SCO leaves first (its own unload handlers may finish),
  // then the runtime is finished if it is not, then the launch; 'terminated' once it is saved.
  function close() {
    if (closing) return;
    closing = true;
    if (frame && frame.parentNode) frame.parentNode.removeChild(frame);
    if (api && state('isInitialized') && !state('isTerminated')) {
      if (kind === 'scorm12') api.LMSFinish('');
      else api.Terminate('');
    }
    call('POST', '/finish').then(terminated, function () {
      tell('error', { during: 'finish' });
    });
  }

  // xAPI and cmi5: the package talks to the LRS itself; its progress is read here.
  function poll() {
    if (terminatedSent || closing) return;
    call('GET', '/status').then(
      function (s) {
        if (s.progress > progress) {
          progress = s.progress;
          tell('committed');
        }
        if (s.terminated) terminated();
        else setTimeout(poll, 3000);
      },
      function () {
        setTimeout(poll, 10000);
      },
    );
  }

  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || event.origin !== appOrigin) return;
    var data = event.data;
    if (!data || data.source !== 'parcours-player' || data.type !== 'terminate') return;
    close();
  });

  call('POST', '/start').then(
    function (launch) {
      if (scorm) {
        var settings = {
          autocommit: true,
          autocommitSeconds: 10,
          lmsCommitUrl: base + '/commit',
          dataCommitFormat: 'json',
          httpService: httpService,
          logLevel: 4,
        };
        var Api = kind === 'scorm12' ? window.Scorm12API : window.Scorm2004API;
        api = new Api(settings);
        if (launch.cmi) api.loadFromJSON(launch.cmi);
        if (kind === 'scorm12') window.API = api;
        else window.API_1484_11 = api;
      }
      // cmi5 OwnWindow (issue 39): the AU takes this window, opened for it by the player.
      if (launch.ownWindow) {
        window.location.replace(launch.entry);
        return;
      }
      frame = document.createElement('iframe');
      frame.title = launch.title || title;
      frame.setAttribute('allow', 'fullscreen; autoplay');
      frame.src = launch.entry;
      document.body.appendChild(frame);
      tell('ready');
      if (!scorm) setTimeout(poll, 3000);
    },
    function (err) {
      tell('error', { during: 'start', status: Number(err && err.message) || 0 });
    },
  );
})();
