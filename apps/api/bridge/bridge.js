/*
 * The package bridge (issue 31, decision 0048, docs/api.md "Packages"). Served on the packages
 * origin at /launch/<key>, framed by the lesson player (the app origin), with the launch's secret
 * in the URL fragment. It hosts the package's launch file in an inner frame, gives a SCORM package
 * its runtime object (scorm-again's `API` for 1.2, `API_1484_11` for 2004) whose commits go to
 * this origin's /runtime calls, and talks to the player only by window messages, checking the
 * origin both ways:
 *   to the player    { source: 'parcours-package', type: 'ready' | 'committed' | 'terminated' | 'error' | 'refused' | 'course' }
 *   from the player  { source: 'parcours-player', type: 'terminate' | 'navigate' }
 * A SCORM package with several SCOs (issue 39) is a course: the bridge delivers one SCO at a time
 * in the inner frame, tells the player its table of contents and which moves are open
 * (`course`), and takes the learner's moves (`navigate`: continue, previous, choice). SCORM
 * 2004 moves go through scorm-again's sequencing engine, with the manifest's rules; SCORM 1.2,
 * which has none, moves through the SCOs in the organization's order or to any chosen one.
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
  function commit(params, immediate, sco) {
    sequence += 1;
    var cmi = params && typeof params === 'object' && params.cmi ? params.cmi : params;
    var body = { cmi: cmi, sequence: sequence, terminate: !!immediate };
    if (course) {
      // A commit without a SCO carries the engine's state only (after a move).
      if (sco) body.sco = sco;
      if (sequenced) {
        body.state = api.serializeSequencingState();
        body.course = rollup();
      }
    }
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
      if (immediate && !course) terminated();
      if (course) statusChanged(sco, cmi, xhr.responseText);
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
  // The commits of one API object speak for the SCO it was made for (SCORM 1.2: an object per
  // SCO); the sequenced API of a 2004 course for the SCO whose session is open.
  function httpServiceFor(sco) {
    return {
      processHttpRequest: function (_url, params, immediate) {
        return commit(params, immediate, sco === undefined ? openSco || current : sco);
      },
      updateSettings: function () {},
    };
  }

  function state(method) {
    return api && typeof api[method] === 'function' ? api[method]() : false;
  }

  // The player closes the package: the SCO leaves first (its own unload handlers may finish),
  // then the runtime is finished if it is not, then the launch; 'terminated' once it is saved.
  function close() {
    if (closing) return;
    closing = true;
    if (frame && frame.parentNode) frame.parentNode.removeChild(frame);
    if (sequenced) {
      // A course left midway is suspended, so the next launch resumes it (resumeAll).
      if (state('isInitialized') && !state('isTerminated')) {
        api.SetValue('adl.nav.request', 'suspendAll');
        api.Terminate('');
      } else api.processNavigationRequest('suspendAll');
      saveState();
    } else if (api && state('isInitialized') && !state('isTerminated')) {
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

  // ---- A course: several SCOs (issue 39) ----
  var course = null;
  var sequenced = false;
  var scos = [];
  var titles = {};
  var current = null;
  var openSco = null;
  var statuses = {};
  var validity = null;
  var ended = false;
  var first = null;

  function collect(node) {
    titles[node.id] = node.title;
    if (node.sco) scos.push(node.id);
    (node.children || []).forEach(collect);
  }
  function rollup() {
    var t = api && api.getActivityTrackingData ? api.getActivityTrackingData(course.toc.id) : null;
    var completion =
      t && (t.completionStatus === 'completed' || t.completionStatus === 'incomplete')
        ? t.completionStatus
        : 'unknown';
    var success =
      t && (t.successStatus === 'passed' || t.successStatus === 'failed') ? t.successStatus : 'unknown';
    var scaled =
      t && typeof t.score === 'number' && isFinite(t.score) && t.score >= -1 && t.score <= 1 ? t.score : null;
    return { completion: completion, success: success, scaled: scaled };
  }
  function statusOf(cmi) {
    if (!cmi) return null;
    if (kind === 'scorm12') {
      var s = (cmi.core && cmi.core.lesson_status) || '';
      return {
        completion:
          s === 'completed' || s === 'passed' || s === 'failed'
            ? 'completed'
            : s === 'incomplete' || s === 'browsed'
              ? 'incomplete'
              : 'unknown',
        success: s === 'passed' || s === 'failed' ? s : 'unknown',
      };
    }
    return { completion: cmi.completion_status || 'unknown', success: cmi.success_status || 'unknown' };
  }
  function statusChanged(sco, cmi, answer) {
    // The status the server stored (a SCO finishing without one is completed there, RTE 3.4.4).
    var st = statusOf(cmi);
    try {
      var saved = JSON.parse(answer);
      if (saved && typeof saved.completion === 'string')
        st = { completion: saved.completion, success: saved.success };
    } catch {
      // No answer to read: the SCO's own data.
    }
    if (st && sco) statuses[sco] = st;
    report();
  }
  // What the player shows: the contents, each SCO's status, where the learner is, the open moves.
  function report() {
    var items = {};
    scos.forEach(function (id, i) {
      var st = statuses[id] || { completion: 'unknown', success: 'unknown' };
      if (sequenced) {
        var t = api.getActivityTrackingData(id);
        if (t) st = { completion: t.completionStatus || 'unknown', success: t.successStatus || 'unknown' };
      }
      var can = sequenced
        ? !!(validity && validity.choice && String(validity.choice[id]) === 'true')
        : i !== scos.indexOf(current);
      items[id] = { completion: st.completion, success: st.success, choice: can && !ended };
    });
    var hide = (validity && validity.hideLmsUi) || [];
    var at = scos.indexOf(current);
    tell('course', {
      toc: course.toc,
      items: items,
      current: current,
      canContinue:
        !ended &&
        hide.indexOf('continue') === -1 &&
        (sequenced ? !!(validity && validity['continue']) : at < scos.length - 1),
      canPrevious:
        !ended && hide.indexOf('previous') === -1 && (sequenced ? !!(validity && validity.previous) : at > 0),
      ended: ended,
    });
  }
  function saveState() {
    // The engine's state after a move: a commit of no SCO's data.
    commit({}, false, null);
  }
  function cmiOf(sco) {
    if (first && first.sco === sco) {
      var cmi = first.cmi;
      first = null;
      return Promise.resolve(cmi);
    }
    return call('GET', '/sco/' + encodeURIComponent(sco)).then(function (a) {
      return a.cmi;
    });
  }
  // Puts a SCO in the frame, with its own saved data.
  function deliver(sco) {
    var seq = sequenced;
    current = sco;
    report();
    cmiOf(sco).then(
      function (cmi) {
        if (closing || current !== sco) return;
        if (seq) {
          if (state('isInitialized') || state('isTerminated'))
            api.reset(undefined, { preserveListeners: true });
          if (cmi) api.loadFromJSON(cmi);
        } else newApi(sco, cmi);
        show(course.entries[sco], titles[sco] || title);
      },
      function () {
        tell('error', { during: 'deliver' });
      },
    );
  }
  function startCourse(launch) {
    course = launch.course;
    collect(course.toc);
    statuses = course.statuses || {};
    first = { sco: launch.sco, cmi: launch.cmi };
    sequenced = kind === 'scorm2004' && !!course.sequencing;
    if (!sequenced) {
      deliver(course.current);
      return;
    }
    var settings = settingsFor(undefined);
    var seq = Object.assign({}, course.sequencing);
    seq.eventListeners = {
      onActivityDelivery: function (activity) {
        deliver(activity.id);
      },
      onNavigationValidityUpdate: function (v) {
        validity = v;
        report();
      },
      onRollupComplete: function () {
        report();
      },
      onSequencingSessionEnd: function () {
        ended = true;
        saveState();
        if (frame && frame.parentNode) frame.parentNode.removeChild(frame);
        report();
      },
    };
    settings.sequencing = seq;
    api = new window.Scorm2004API(settings);
    window.API_1484_11 = api;
    api.on('Initialize', function () {
      openSco = current;
    });
    api.on('Terminate', function () {
      openSco = null;
    });
    var resumed = false;
    if (course.state && api.deserializeSequencingState(course.state))
      resumed = api.processNavigationRequest('resumeAll');
    if (!resumed && !api.processNavigationRequest('start') && course.current)
      api.processNavigationRequest('choice', course.current);
  }
  // A move the learner asked for in the player.
  function navigate(request, target) {
    if (request !== 'continue' && request !== 'previous' && request !== 'choice') return;
    if (request === 'choice' && scos.indexOf(target) === -1) return;
    if (!sequenced) {
      var at = scos.indexOf(current);
      var to = request === 'choice' ? target : scos[request === 'continue' ? at + 1 : at - 1];
      if (!to || to === current) return;
      // The bridge finishes the SCO before it leaves: a save made while a page unloads can only
      // be a beacon. The SCO's own unload handler then finds its session over (an error it
      // ignores), as with any LMS that finishes a SCO on navigation.
      if (api && state('isInitialized') && !state('isTerminated')) {
        if (kind === 'scorm12') api.LMSFinish('');
        else api.Terminate('');
      }
      deliver(to);
      return;
    }
    if (state('isInitialized') && !state('isTerminated')) {
      // As a SCO would: the request, then Terminate; the engine moves once the SCO is ended.
      api.SetValue('adl.nav.request', request === 'choice' ? '{target=' + target + '}choice' : request);
      api.Terminate('');
    } else api.processNavigationRequest(request, request === 'choice' ? target : undefined);
    saveState();
  }

  window.addEventListener('message', function (event) {
    if (event.source !== window.parent || event.origin !== appOrigin) return;
    var data = event.data;
    if (!data || data.source !== 'parcours-player') return;
    if (data.type === 'terminate') close();
    else if (data.type === 'navigate' && course && !closing) navigate(data.request, data.target);
  });

  function settingsFor(sco) {
    return {
      autocommit: true,
      autocommitSeconds: 10,
      lmsCommitUrl: base + '/commit',
      dataCommitFormat: 'json',
      httpService: httpServiceFor(sco),
      logLevel: 4,
      // SCORM 1.2 RTE 3.4.4: a SCO that never sets a status is completed on LMSFinish, then
      // judged by the mastery score when it gave a raw score.
      autoCompleteLessonStatus: true,
      mastery_override: true,
    };
  }
  function newApi(sco, cmi) {
    var Api = kind === 'scorm12' ? window.Scorm12API : window.Scorm2004API;
    api = new Api(settingsFor(sco));
    if (cmi) api.loadFromJSON(cmi);
    if (kind === 'scorm12') window.API = api;
    else window.API_1484_11 = api;
  }
  function show(entry, frameTitle) {
    // A new frame per SCO: the last one's page unloads (and may finish) before the next loads.
    if (frame && frame.parentNode) frame.parentNode.removeChild(frame);
    frame = document.createElement('iframe');
    frame.title = frameTitle;
    frame.setAttribute('allow', 'fullscreen; autoplay');
    frame.src = entry;
    document.body.appendChild(frame);
  }

  call('POST', '/start').then(
    function (launch) {
      if (scorm && launch.course) {
        startCourse(launch);
        tell('ready');
        return;
      }
      if (scorm) newApi(undefined, launch.cmi);
      // cmi5 OwnWindow (issue 39): the AU takes this window, opened for it by the player.
      if (launch.ownWindow) {
        window.location.replace(launch.entry);
        return;
      }
      show(launch.entry, launch.title || title);
      tell('ready');
      if (!scorm) setTimeout(poll, 3000);
    },
    function (err) {
      tell('error', { during: 'start', status: Number(err && err.message) || 0 });
    },
  );
})();
