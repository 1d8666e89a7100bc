var de,w,Xe,Wt,W,Be,Je,Ye,we,le,Z,Qe,Ee,ke,Se,Ot,ue={},_e=[],qt=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,me=Array.isArray;function L(e,t){for(var n in t)e[n]=t[n];return e}function Pe(e){e&&e.parentNode&&e.parentNode.removeChild(e)}function fe(e,t,n){var o,s,r,a={};for(r in t)r=="key"?o=t[r]:r=="ref"?s=t[r]:a[r]=t[r];if(arguments.length>2&&(a.children=arguments.length>3?de.call(arguments,2):n),typeof e=="function"&&e.defaultProps!=null)for(r in e.defaultProps)a[r]===void 0&&(a[r]=e.defaultProps[r]);return ce(e,a,o,s,null)}function ce(e,t,n,o,s){var r={type:e,props:t,key:n,ref:o,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:s??++Xe,__i:-1,__u:0};return s==null&&w.vnode!=null&&w.vnode(r),r}function he(e){return e.children}function ee(e,t){this.props=e,this.context=t}function j(e,t){if(t==null)return e.__?j(e.__,e.__i+1):null;for(var n;t<e.__k.length;t++)if((n=e.__k[t])!=null&&n.__e!=null)return n.__e;return typeof e.type=="function"?j(e):null}function jt(e){if(e.__P&&e.__d){var t=e.__v,n=t.__e,o=[],s=[],r=L({},t);r.__v=t.__v+1,w.vnode&&w.vnode(r),Ce(e.__P,r,t,e.__n,e.__P.namespaceURI,32&t.__u?[n]:null,o,n??j(t),!!(32&t.__u),s),r.__v=t.__v,r.__.__k[r.__i]=r,ot(o,r,s),t.__e=t.__=null,r.__e!=n&&Ze(r)}}function Ze(e){if((e=e.__)!=null&&e.__c!=null)return e.__e=e.__c.base=null,e.__k.some(function(t){if(t!=null&&t.__e!=null)return e.__e=e.__c.base=t.__e}),Ze(e)}function Ve(e){(!e.__d&&(e.__d=!0)&&W.push(e)&&!pe.__r++||Be!=w.debounceRendering)&&((Be=w.debounceRendering)||Je)(pe)}function pe(){try{for(var e,t=1;W.length;)W.length>t&&W.sort(Ye),e=W.shift(),t=W.length,jt(e)}finally{W.length=pe.__r=0}}function et(e,t,n,o,s,r,a,i,u,l,_){var p,c,m,b,f,$,y=o&&o.__k||_e,v=t.length;for(u=Gt(n,t,y,u,v),p=0;p<v;p++)(m=n.__k[p])!=null&&(c=m.__i!=-1&&y[m.__i]||ue,m.__i=p,$=Ce(e,m,c,s,r,a,i,u,l,_),b=m.__e,m.ref&&c.ref!=m.ref&&(c.ref&&Re(c.ref,null,m),_.push(m.ref,m.__c||b,m)),f==null&&b!=null&&(f=b),4&m.__u?(u=tt(m,u,e),c.__e&&(c.__e=null)):typeof m.type=="function"&&$!==void 0?u=$:b&&(u=b.nextSibling),m.__u&=-7);return n.__e=f,u}function Gt(e,t,n,o,s){var r,a,i,u,l,_=n.length,p=_,c=0;for(e.__k=new Array(s),r=0;r<s;r++)(a=t[r])!=null&&typeof a!="boolean"&&typeof a!="function"?(typeof a=="string"||typeof a=="number"||typeof a=="bigint"||a.constructor==String?a=e.__k[r]=ce(null,a,null,null,null):me(a)?a=e.__k[r]=ce(he,{children:a},null,null,null):a.constructor===void 0&&a.__b>0?a=e.__k[r]=ce(a.type,a.props,a.key,a.ref?a.ref:null,a.__v):e.__k[r]=a,u=r+c,a.__=e,a.__b=e.__b+1,i=null,(l=a.__i=Bt(a,n,u,p))!=-1&&(p--,(i=n[l])&&(i.__u|=2)),i==null||i.__v==null?(l==-1&&(s>_?c--:s<_&&c++),typeof a.type!="function"&&(a.__u|=4)):l!=u&&(l==u-1?c--:l==u+1?c++:(l>u?c--:c++,a.__u|=4))):e.__k[r]=null;if(p)for(r=0;r<_;r++)(i=n[r])!=null&&(2&i.__u)==0&&(i.__e==o&&(o=j(i)),st(i,i));return o}function tt(e,t,n){var o,s;if(typeof e.type=="function"){for(o=e.__k,s=0;o&&s<o.length;s++)o[s]&&(o[s].__=e,t=tt(o[s],t,n));return t}e.__e!=t&&(t&&e.type&&!t.parentNode&&(t=j(e)),t=n.insertBefore(e.__e,t||null));do t=t&&t.nextSibling;while(t!=null&&t.nodeType==8);return t}function Bt(e,t,n,o){var s,r,a,i=e.key,u=e.type,l=t[n],_=l!=null&&(2&l.__u)==0;if(l===null&&i==null||_&&i==l.key&&u==l.type)return n;if(o>(_?1:0)){for(s=n-1,r=n+1;s>=0||r<t.length;)if((l=t[a=s>=0?s--:r++])!=null&&(2&l.__u)==0&&i==l.key&&u==l.type)return a}return-1}function Ke(e,t,n){t[0]=="-"?e.setProperty(t,n??""):e[t]=n==null?"":typeof n!="number"||qt.test(t)?n:n+"px"}function ae(e,t,n,o,s){var r,a;e:if(t=="style")if(typeof n=="string")e.style.cssText=n;else{if(typeof o=="string"&&(e.style.cssText=o=""),o)for(t in o)n&&t in n||Ke(e.style,t,"");if(n)for(t in n)o&&n[t]==o[t]||Ke(e.style,t,n[t])}else if(t[0]=="o"&&t[1]=="n")r=t!=(t=t.replace(Qe,"$1")),a=t.toLowerCase(),t=a in e||t=="onFocusOut"||t=="onFocusIn"?a.slice(2):t.slice(2),e.l||(e.l={}),e.l[t+r]=n,n?o?n[Z]=o[Z]:(n[Z]=Ee,e.addEventListener(t,r?Se:ke,r)):e.removeEventListener(t,r?Se:ke,r);else{if(s=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{e[t]=n??"";break e}catch{}typeof n=="function"||(n==null||n===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&n==1?"":n))}}function ze(e){return function(t){if(this.l){var n=this.l[t.type+e];if(t[le]==null)t[le]=Ee++;else if(t[le]<n[Z])return;return n(w.event?w.event(t):t)}}}function Ce(e,t,n,o,s,r,a,i,u,l){var _,p,c,m,b,f,$,y,v,I,Y,q,Q,Ge,ie,ve,M=t.type;if(t.constructor!==void 0)return null;128&n.__u&&(u=!!(32&n.__u),r=[i=t.__e=n.__e]),(_=w.__b)&&_(t);e:if(typeof M=="function"){p=a.length;try{if(v=t.props,I=M.prototype&&M.prototype.render,Y=(_=M.contextType)&&o[_.__c],q=_?Y?Y.props.value:_.__:o,n.__c?y=(c=t.__c=n.__c).__=c.__E:(I?t.__c=c=new M(v,q):(t.__c=c=new ee(v,q),c.constructor=M,c.render=Kt),Y&&Y.sub(c),c.state||(c.state={}),c.__n=o,m=c.__d=!0,c.__h=[],c._sb=[]),I&&c.__s==null&&(c.__s=c.state),I&&M.getDerivedStateFromProps!=null&&(c.__s==c.state&&(c.__s=L({},c.__s)),L(c.__s,M.getDerivedStateFromProps(v,c.__s))),b=c.props,f=c.state,c.__v=t,m)I&&M.getDerivedStateFromProps==null&&c.componentWillMount!=null&&c.componentWillMount(),I&&c.componentDidMount!=null&&c.__h.push(c.componentDidMount);else{if(I&&M.getDerivedStateFromProps==null&&v!==b&&c.componentWillReceiveProps!=null&&c.componentWillReceiveProps(v,q),t.__v==n.__v||!c.__e&&c.shouldComponentUpdate!=null&&c.shouldComponentUpdate(v,c.__s,q)===!1){t.__v!=n.__v&&(c.props=v,c.state=c.__s,c.__d=!1),t.__e=n.__e,t.__k=n.__k,t.__k.some(function(K){K&&(K.__=t)}),_e.push.apply(c.__h,c._sb),c._sb=[],c.__h.length&&a.push(c),i=j(n);break e}c.componentWillUpdate!=null&&c.componentWillUpdate(v,c.__s,q),I&&c.componentDidUpdate!=null&&c.__h.push(function(){c.componentDidUpdate(b,f,$)})}if(c.context=q,c.props=v,c.__P=e,c.__e=!1,Q=w.__r,Ge=0,I)c.state=c.__s,c.__d=!1,Q&&Q(t),_=c.render(c.props,c.state,c.context),_e.push.apply(c.__h,c._sb),c._sb=[];else do c.__d=!1,Q&&Q(t),_=c.render(c.props,c.state,c.context),c.state=c.__s;while(c.__d&&++Ge<25);c.state=c.__s,c.getChildContext!=null&&(o=L(L({},o),c.getChildContext())),I&&!m&&c.getSnapshotBeforeUpdate!=null&&($=c.getSnapshotBeforeUpdate(b,f)),ie=_!=null&&_.type===he&&_.key==null?rt(_.props.children):_,i=et(e,me(ie)?ie:[ie],t,n,o,s,r,a,i,u,l),c.base=t.__e,t.__u&=-161,c.__h.length&&a.push(c),y&&(c.__E=c.__=null)}catch(K){if(a.length=p,t.__v=null,u||r!=null){if(K.then){for(t.__u|=u?160:128;i&&i.nodeType==8&&i.nextSibling;)i=i.nextSibling;r!=null&&(r[r.indexOf(i)]=null),t.__e=i}else if(r!=null)for(ve=r.length;ve--;)Pe(r[ve])}else t.__e=n.__e;t.__k==null&&(t.__k=n.__k||[]),K.then||nt(t),w.__e(K,t,n)}}else r==null&&t.__v==n.__v?(t.__k=n.__k,t.__e=n.__e):i=t.__e=Vt(n.__e,t,n,o,s,r,a,u,l);return(_=w.diffed)&&_(t),128&t.__u?void 0:i}function nt(e){e&&(e.__c&&(e.__c.__e=!0),e.__k&&e.__k.some(nt))}function ot(e,t,n){for(var o=0;o<n.length;o++)Re(n[o],n[++o],n[++o]);w.__c&&w.__c(t,e),e.some(function(s){try{e=s.__h,s.__h=[],e.some(function(r){r.call(s)})}catch(r){w.__e(r,s.__v)}})}function rt(e){return typeof e!="object"||e==null||e.__b>0?e:me(e)?e.map(rt):e.constructor!==void 0?null:L({},e)}function Vt(e,t,n,o,s,r,a,i,u){var l,_,p,c,m,b,f,$=n.props||ue,y=t.props,v=t.type;if(v=="svg"?s="http://www.w3.org/2000/svg":v=="math"?s="http://www.w3.org/1998/Math/MathML":s||(s="http://www.w3.org/1999/xhtml"),r!=null){for(l=0;l<r.length;l++)if((m=r[l])&&"setAttribute"in m==!!v&&(v?m.localName==v:m.nodeType==3)){e=m,r[l]=null;break}}if(e==null){if(v==null)return document.createTextNode(y);e=document.createElementNS(s,v,y.is&&y),i&&(w.__m&&w.__m(t,r),i=!1),r=null}if(v==null)$===y||i&&e.data==y||(e.data=y);else{if(r=v=="textarea"&&y.defaultValue!=null?null:r&&de.call(e.childNodes),!i&&r!=null)for($={},l=0;l<e.attributes.length;l++)$[(m=e.attributes[l]).name]=m.value;for(l in $)m=$[l],l=="dangerouslySetInnerHTML"?p=m:l=="children"||l in y||l=="value"&&"defaultValue"in y||l=="checked"&&"defaultChecked"in y||ae(e,l,null,m,s);for(l in y)m=y[l],l=="children"?c=m:l=="dangerouslySetInnerHTML"?_=m:l=="value"?b=m:l=="checked"?f=m:i&&typeof m!="function"||$[l]===m||ae(e,l,m,$[l],s);if(_)i||p&&(_.__html==p.__html||_.__html==e.innerHTML)||(e.innerHTML=_.__html),t.__k=[];else if(p&&(e.innerHTML=""),et(t.type=="template"?e.content:e,me(c)?c:[c],t,n,o,v=="foreignObject"?"http://www.w3.org/1999/xhtml":s,r,a,r?r[0]:n.__k&&j(n,0),i,u),r!=null)for(l=r.length;l--;)Pe(r[l]);i&&v!="textarea"||(l="value",v=="progress"&&b==null?e.removeAttribute("value"):b!=null&&(b!==e[l]||v=="progress"&&!b||v=="option"&&b!=$[l])&&ae(e,l,b,$[l],s),l="checked",f!=null&&f!=e[l]&&ae(e,l,f,$[l],s))}return e}function Re(e,t,n){try{if(typeof e=="function"){var o=typeof e.__u=="function";o&&e.__u(),o&&t==null||(e.__u=e(t))}else e.current=t}catch(s){w.__e(s,n)}}function st(e,t,n){var o,s;if(w.unmount&&w.unmount(e),(o=e.ref)&&(o.current&&o.current!=e.__e||Re(o,null,t)),(o=e.__c)!=null){if(o.componentWillUnmount)try{o.componentWillUnmount()}catch(r){w.__e(r,t)}o.base=o.__P=o.__n=null}if(o=e.__k)for(s=0;s<o.length;s++)o[s]&&st(o[s],t,n||typeof e.type!="function");n||Pe(e.__e),e.__c=e.__=e.__e=void 0}function Kt(e,t,n){return this.constructor(e,n)}function xe(e,t,n){var o,s,r,a;t==document&&(t=document.documentElement),w.__&&w.__(e,t),s=(o=typeof n=="function")?null:n&&n.__k||t.__k,r=[],a=[],Ce(t,e=(!o&&n||t).__k=fe(he,null,[e]),s||ue,ue,t.namespaceURI,!o&&n?[n]:s?null:t.firstChild?de.call(t.childNodes):null,r,!o&&n?n:s?s.__e:t.firstChild,o,a),ot(r,e,a),e.props.children=null}de=_e.slice,w={__e:function(e,t,n,o){for(var s,r,a;t=t.__;)if((s=t.__c)&&!s.__)try{if((r=s.constructor)&&r.getDerivedStateFromError!=null&&(s.setState(r.getDerivedStateFromError(e)),a=s.__d),s.componentDidCatch!=null&&(s.componentDidCatch(e,o||{}),a=s.__d),a)return s.__E=s}catch(i){e=i}throw e}},Xe=0,Wt=function(e){return e!=null&&e.constructor===void 0},ee.prototype.setState=function(e,t){var n;n=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=L({},this.state),typeof e=="function"&&(e=e(L({},n),this.props)),e&&L(n,e),e!=null&&this.__v&&(t&&this._sb.push(t),Ve(this))},ee.prototype.forceUpdate=function(e){this.__v&&(this.__e=!0,e&&this.__h.push(e),Ve(this))},ee.prototype.render=he,W=[],Je=typeof Promise=="function"?Promise.prototype.then.bind(Promise.resolve()):setTimeout,Ye=function(e,t){return e.__v.__b-t.__v.__b},pe.__r=0,we=Math.random().toString(8),le="__d"+we,Z="__a"+we,Qe=/(PointerCapture)$|Capture$/i,Ee=0,ke=ze(!1),Se=ze(!0),Ot=0;var F={roles:new Set,perms:new Set,users:new Set},$e=new Set,Te=!1;function Ae(e,t){return typeof t!="string"||t===""||e.has(t)?!1:(e.size>=5e3&&e.delete(e.values().next().value),e.add(t),!0)}function Ne(e){let t=!1;for(let n of Array.isArray(e)?e:[e])!n||typeof n!="object"||(t=Ae(F.roles,n.role)|t,t=Ae(F.perms,n.name)|t,t=Ae(F.users,n.user)|t);t&&!Te&&(Te=!0,queueMicrotask(()=>{Te=!1,$e.forEach(n=>n())}))}function it(e,t){F[e].delete(t)&&$e.forEach(n=>n())}function at(e){return $e.add(e),()=>$e.delete(e)}var Ue="rolegate.console.key",zt=location.pathname.replace(/console\/[^/]*$/,""),De=()=>sessionStorage.getItem(Ue)||"",lt=e=>sessionStorage.setItem(Ue,e),Ie=()=>sessionStorage.removeItem(Ue),te=class extends Error{constructor(t,n){super(n),this.status=t}},ct=()=>{},ut=e=>{ct=e},g=encodeURIComponent;async function R(e,t,{query:n,body:o,key:s,total:r}={}){if(t.split("/").some(p=>p==="."||p===".."))throw new te(400,'The names "." and ".." cannot be sent in a URL path from a browser (it would reach another route); use rolegatectl or the REST API');let a=new URL(zt+"api/"+t,location.origin);for(let[p,c]of Object.entries(n||{}))c!=null&&c!==""&&a.searchParams.set(p,String(c));let i={Authorization:"Bearer "+(s??De()),Accept:"application/json"},u={method:e,headers:i,credentials:"omit",cache:"no-store",referrerPolicy:"no-referrer"};o!==void 0&&(i["Content-Type"]="application/json",u.body=JSON.stringify(o));let l;try{l=await fetch(a,u)}catch(p){throw new te(0,"The server cannot be reached ("+p.message+")")}let _=null;try{_=await l.json()}catch{}if(!l.ok||!_||_.success!==!0){let p=_&&_.message?_.message:l.status+" "+l.statusText;throw _&&_.error&&_.error!==_.message&&(p+=": "+_.error),l.status===401&&s===void 0&&ct(p),new te(l.status,p)}if(r){let p=l.headers.get("X-Total-Count"),c=p===null||p===""?NaN:Number(p);return{data:_.data,total:Number.isSafeInteger(c)&&c>=0?c:null}}return _.data}async function k(e,t){let n=await R("GET",e,{query:t});return Ne(n),n}async function be(e,t){let{data:n,total:o}=await R("GET",e,{query:t,total:!0});return Ne(n),{items:n,total:o}}var pt=function(e,t,n,o){var s;t[0]=0;for(var r=1;r<t.length;r++){var a=t[r++],i=t[r]?(t[0]|=a?1:2,n[t[r++]]):t[++r];a===3?o[0]=i:a===4?o[1]=Object.assign(o[1]||{},i):a===5?(o[1]=o[1]||{})[t[++r]]=i:a===6?o[1][t[++r]]+=i+"":a?(s=e.apply(i,pt(e,i,n,["",null])),o.push(s),i[0]?t[0]|=2:(t[r-2]=0,t[r]=s)):o.push(i)}return o},_t=new Map;function dt(e){var t=_t.get(this);return t||(t=new Map,_t.set(this,t)),(t=pt(this,t.get(e)||(t.set(e,t=(function(n){for(var o,s,r=1,a="",i="",u=[0],l=function(c){r===1&&(c||(a=a.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,c,a):r===3&&(c||a)?(u.push(3,c,a),r=2):r===2&&a==="..."&&c?u.push(4,c,0):r===2&&a&&!c?u.push(5,0,!0,a):r>=5&&((a||!c&&r===5)&&(u.push(r,0,a,s),r=6),c&&(u.push(r,c,0,s),r=6)),a=""},_=0;_<n.length;_++){_&&(r===1&&l(),l(_));for(var p=0;p<n[_].length;p++)o=n[_][p],r===1?o==="<"?(l(),u=[u],r=3):a+=o:r===4?a==="--"&&o===">"?(r=1,a=""):a=o+a[0]:i?o===i?i="":a+=o:o==='"'||o==="'"?i=o:o===">"?(l(),r=1):r&&(o==="="?(r=5,s=a,a=""):o==="/"&&(r<5||n[_][p+1]===">")?(l(),r===3&&(u=u[0]),r=u,(u=u[0]).push(2,0,r),r=0):o===" "||o==="	"||o===`
`||o==="\r"?(l(),r=2):a+=o),r===3&&a==="!--"&&(r=4,u=u[0])}return l(),u})(e)),t),arguments,[])).length>1?t:t[0]}var d=dt.bind(fe);var ne,S,Me,mt,oe=0,wt=[],P=w,ft=P.__b,ht=P.__r,$t=P.diffed,bt=P.__c,gt=P.unmount,yt=P.__;function Fe(e,t){P.__h&&P.__h(S,e,oe||t),oe=0;var n=S.__H||(S.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function h(e){return oe=1,Xt(Pt,e)}function Xt(e,t,n){var o=Fe(ne++,2);if(o.t=e,!o.__c&&(o.__=[n?n(t):Pt(void 0,t),function(i){var u=o.__N?o.__N[0]:o.__[0],l=o.t(u,i);u!==l&&(o.__N=[l,o.__[1]],o.__c.setState({}))}],o.__c=S,!S.__f)){var s=function(i,u,l){if(!o.__c.__H)return!0;var _=!1,p=o.__c.props!==i;if(o.__c.__H.__.some(function(m){if(m.__N){_=!0;var b=m.__[0];m.__=m.__N,m.__N=void 0,b!==m.__[0]&&(p=!0)}}),r){var c=r.call(this,i,u,l);return _?c||p:c}return!_||p};S.__f=!0;var r=S.shouldComponentUpdate,a=S.componentWillUpdate;S.componentWillUpdate=function(i,u,l){if(this.__e){var _=r;r=void 0,s(i,u,l),r=_}a&&a.call(this,i,u,l)},S.shouldComponentUpdate=s}return o.__N||o.__}function N(e,t){var n=Fe(ne++,3);!P.__s&&Et(n.__H,t)&&(n.__=e,n.u=t,S.__H.__h.push(n))}function z(e){return oe=5,kt(function(){return{current:e}},[])}function kt(e,t){var n=Fe(ne++,7);return Et(n.__H,t)&&(n.__=e(),n.__H=t,n.__h=e),n.__}function St(e,t){return oe=8,kt(function(){return e},t)}function Jt(){for(var e;e=wt.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(ge),t.__h.some(Le),t.__h=[]}catch(n){t.__h=[],P.__e(n,e.__v)}}}P.__b=function(e){S=null,ft&&ft(e)},P.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),yt&&yt(e,t)},P.__r=function(e){ht&&ht(e),ne=0;var t=(S=e.__c).__H;t&&(Me===S?(t.__h=[],S.__h=[],t.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})):(t.__h.some(ge),t.__h.some(Le),t.__h=[],ne=0)),Me=S},P.diffed=function(e){$t&&$t(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&(wt.push(t)!==1&&mt===P.requestAnimationFrame||((mt=P.requestAnimationFrame)||Yt)(Jt)),t.__H.__.some(function(n){n.u&&(n.__H=n.u,n.u=void 0)})),Me=S=null},P.__c=function(e,t){t.some(function(n){try{n.__h.some(ge),n.__h=n.__h.filter(function(o){return!o.__||Le(o)})}catch(o){t.some(function(s){s.__h&&(s.__h=[])}),t=[],P.__e(o,n.__v)}}),bt&&bt(e,t)},P.unmount=function(e){gt&&gt(e);var t,n=e.__c;n&&n.__H&&(n.__H.__.some(function(o){try{ge(o)}catch(s){t=s}}),n.__H=void 0,t&&P.__e(t,n.__v))};var vt=typeof requestAnimationFrame=="function";function Yt(e){var t,n=function(){clearTimeout(o),vt&&cancelAnimationFrame(t),setTimeout(e)},o=setTimeout(n,35);vt&&(t=requestAnimationFrame(n))}function ge(e){var t=S,n=e.__c;typeof n=="function"&&(e.__c=void 0,n()),S=t}function Le(e){var t=S;e.__c=e.__(),S=t}function Et(e,t){return!e||e.length!==t.length||t.some(function(n,o){return n!==e[o]})}function Pt(e,t){return typeof t=="function"?t(e):t}var C=50;function T(e,t,n,o=!0){let s=JSON.stringify(n),[r,a]=h({key:s,cursors:[void 0]}),i=r.key===s?r.cursors:[void 0],[u,l]=h({items:[],total:null,loading:!0,error:""}),[_,p]=h(0),c=i[i.length-1];N(()=>{if(!o){l({items:[],total:null,loading:!1,error:""});return}let b=!0;return l(f=>({...f,loading:!0})),e(c).then(f=>b&&l(Array.isArray(f)||!f?{items:f||[],total:null,loading:!1,error:""}:{items:f.items||[],total:f.total??null,loading:!1,error:""}),f=>b&&l({items:[],total:null,loading:!1,error:f.message})),()=>{b=!1}},[s,c,_,o]);let m=u.items;return{...u,page:i.length,hasNext:m.length>=C,hasPrev:i.length>1,next:()=>m.length&&a({key:s,cursors:[...i,t(m[m.length-1])]}),prev:()=>a({key:s,cursors:i.slice(0,-1)}),reload:()=>p(b=>b+1)}}function Qt({p:e,label:t,total:n}){if(!e.hasPrev&&!e.hasNext)return null;let o=n>0?Math.max(1,Math.ceil(n/C)):0;return d`<nav class="pager" aria-label=${t+" pages"}>
    <button type="button" onClick=${e.prev} disabled=${!e.hasPrev}>Previous page</button>
    <span>Page ${e.page}${o?" of "+o:""}</span>
    <button type="button" onClick=${e.next} disabled=${!e.hasNext}>Next page</button>
  </nav>`}function H({text:e,id:t}){return e?d`<p class="error" role="alert" id=${t}>${e}</p>`:null}function E({id:e,label:t,value:n,onInput:o,required:s,placeholder:r,type:a,hint:i,list:u,note:l}){let _=[i&&e+"-hint",l&&e+"-new"].filter(Boolean).join(" ");return d`<div class="field">
    <label for=${e}>${t}${s?"":d` <span class="opt">(optional)</span>`}</label>
    <input id=${e} name=${e} type=${a||"text"} value=${n} required=${s} placeholder=${r}
      list=${u} autocomplete="off" spellcheck=${!1} aria-describedby=${_||void 0}
      onInput=${p=>o(p.currentTarget.value)} />
    ${i&&d`<small id=${e+"-hint"}>${i}</small>`}
    ${l&&d`<small class="note" id=${e+"-new"}>${l}</small>`}
  </div>`}var G="known-roles",B="known-perms",O="known-users";function Ct(){let[,e]=h(0);N(()=>at(()=>e(n=>n+1)),[]);let t=n=>[...n].sort().map(o=>d`<option key=${o} value=${o} />`);return d`<datalist id=${G}>${t(F.roles)}</datalist>
    <datalist id=${B}>${t(F.perms)}</datalist>
    <datalist id=${O}>${t(F.users)}</datalist>`}function se(e,t){let n=t.trim();if(!n||F[e].has(n))return"";let o={perms:"permission",roles:"role",users:"user"}[e];return"\u201C"+n+"\u201D is not a "+o+" name seen so far: check the spelling."}var He={owner:"",text:"",kind:""},We=new Set;function re(e,t,n="ok"){He={owner:e,text:t,kind:n},We.forEach(o=>o())}var Rt=()=>re("","","");function U({owner:e}){let[,t]=h(0);N(()=>{let r=()=>t(a=>a+1);return We.add(r),()=>We.delete(r)},[]);let n=He.owner===e?He:null,o=n?n.text:"",s=n?n.kind:"";return d`<p id=${e+"-status"} class=${"msg "+s} role=${s==="error"?"alert":"status"}
    aria-live=${s==="error"?"assertive":"polite"}>${o}</p>`}function D(e){let[t,n]=h(!1),[o,s]=h(""),r=St(async a=>{n(!0),s("");try{let i=await a();return e&&typeof i=="string"&&re(e,i,"ok"),i}catch(i){e?re(e,i.message,"error"):s(i.message);return}finally{n(!1)}},[e]);return{busy:t,error:o,run:r,setError:s}}function A({p:e,label:t,empty:n,render:o,id:s,total:r,counted:a,prefix:i}){let u=r!==void 0?r:e.total;return d`<div class="list" id=${s} aria-busy=${e.loading}>
    <${H} text=${e.error} />
    ${a&&!e.loading&&!e.error&&e.total>0&&d`<p class="count" id=${s+"-count"}>${e.total} ${e.total===1?a[0]:a[1]}${i?" starting with \u201C"+i+"\u201D":""}</p>`}
    ${!e.loading&&!e.error&&e.items.length===0&&d`<p class="empty">${n}</p>`}
    ${e.items.length>0&&d`<ul aria-label=${t}>${e.items.map(o)}</ul>`}
    <${Qt} p=${e} label=${t} total=${u} />
  </div>`}var x=(...e)=>"#/"+e.map(encodeURIComponent).join("/");function xt(e){let t=e.scope?"in scope \u201C"+e.scope+"\u201D":"globally",n=e.chain.length>1?", which inherits along "+e.chain.join(" \u2192 "):"";return"member of "+e.membership+" "+t+n+"; granted to "+e.granted_by}function X({id:e,label:t,value:n,onInput:o,list:s}){return d`<div class="search" role="search">
    <${E} id=${e} label=${t} value=${n} onInput=${o} list=${s} type="search"
      hint="Names starting with this text; empty: all." />
  </div>`}function J(e,t=250){let[n,o]=h(e);return N(()=>{let s=setTimeout(()=>o(e),t);return()=>clearTimeout(s)},[e,t]),n}function Tt(){let[e,t]=h(""),n=J(e),o=T(m=>be("roles",{limit:C,after:m,prefix:n}),m=>m.role,[n]),[s,r]=h(""),[a,i]=h(""),[u,l]=h(""),_=z(null);N(()=>{!u&&_.current&&_.current.isConnected&&_.current.focus()},[u]);let p=D("new-role");return d`
    <section aria-labelledby="new-role-h">
      <h2 id="new-role-h">New role</h2>
      <form class="inline" onSubmit=${m=>{m.preventDefault(),p.run(async()=>{let f="Role "+(await R("POST","role/"+g(s),{body:a?{description:a}:void 0})).role+" created.";return r(""),i(""),o.reload(),f})}}>
        <${E} id="new-role" label="Role name" value=${s} onInput=${r} required />
        <${E} id="new-role-desc" label="Description" value=${a} onInput=${i} />
        <button type="submit" disabled=${p.busy}>Create role</button>
      </form>
      <${U} owner="new-role" />
    </section>
    <section aria-labelledby="roles-h">
      <h2 id="roles-h">Roles</h2>
      <${X} id="find-role" label="Find roles" value=${e} onInput=${t} list=${G} />
      <${U} owner="roles" />
      <${A} p=${o} label="Roles" id="roles-list" counted=${["role","roles"]} prefix=${n} empty=${n?"No role starts with \u201C"+n+"\u201D.":"No roles yet."} render=${m=>d`
        <li key=${m.role} class="row">
          <a href=${x("role",m.role)}>${m.role}</a>
          <span class="desc">${m.description}</span>
          <button type="button" class="danger" onClick=${b=>{_.current=b.currentTarget,l(m.role)}}
            aria-label=${"Delete role "+m.role}>Delete</button>
        </li>`} />
    </section>
    ${u&&d`<${Zt} role=${u} onClose=${m=>{l(""),m&&(it("roles",u),re("roles",m),o.reload(),_.current=null)}} />`}`}var ye=100;function Zt({role:e,onClose:t}){let n=z(),[o,s]=h(null),r=D();N(()=>{let l=n.current;l.showModal();let _=()=>t("");return l.addEventListener("cancel",_),r.run(async()=>{let p="role/"+g(e),[c,m,b,f,$]=await Promise.all([k(p),k("members/"+g(e),{limit:ye}),k("role_permissions/"+g(e),{limit:ye}),k(p+"/inherits",{limit:ye}),k(p+"/inherited_by",{limit:ye})]);s({counts:c.counts,members:m.map(y=>y.user),perms:b.map(y=>y.name),parents:f.map(y=>y.role),children:$.map(y=>y.role)})}),()=>l.removeEventListener("cancel",_)},[e]);let a=()=>r.run(async()=>{let l=await R("DELETE","role/"+g(e)),_=o.counts;t(l.deleted?"Role "+e+" deleted, with "+V(_.members+_.scoped_members,"membership")+" and "+V(_.permissions,"permission")+".":"Role "+e+" was already gone.")}),i=(l,_)=>_===0?"none":l.join(", ")+(_>l.length?" and "+(_-l.length)+" more":""),u=o&&o.counts;return d`<dialog ref=${n} aria-labelledby="del-h" aria-describedby="del-what" id="delete-dialog">
    <h2 id="del-h">Delete role “${e}”?</h2>
    <${H} text=${r.error} />
    ${o?d`<div id="del-what">
      <p>This also removes, for good:</p>
      <ul class="cascade">
        <li><strong>${V(u.members,"global membership")}</strong>: ${i(o.members,u.members)}</li>
        <li><strong>${V(u.scoped_members,"membership")} in a scope</strong>${u.scoped_members?" (listed on the Members page)":""}</li>
        <li><strong>${V(u.permissions,"permission")}</strong>: ${i(o.perms,u.permissions)}</li>
        <li><strong>${V(u.parents,"parent link")}</strong> (it inherits from): ${i(o.parents,u.parents)}</li>
        <li><strong>${V(u.children,"child link")}</strong> (roles inheriting from it lose what it grants): ${i(o.children,u.children)}</li>
      </ul>
      <p>Re-creating the role brings none of this back.</p></div>`:d`<p id="del-what" aria-busy="true">Looking up what goes with it…</p>`}
    <div class="actions">
      <button type="button" class="danger" id="confirm-delete" onClick=${a} disabled=${!o||r.busy}>Delete ${e}</button>
      <button type="button" onClick=${()=>t("")}>Cancel</button>
    </div>
  </dialog>`}function V(e,t){return e+" "+t+(e===1?"":"s")}function At({role:e}){let[t,n]=h(0),[o,s]=h({detail:null,error:""});N(()=>{let l=!0;return k("role/"+g(e)).then(_=>l&&s({detail:_,error:""}),_=>l&&s({detail:null,error:_.status===404?"Role \u201C"+e+"\u201D not found: there is no role of that name (create it on the Roles page).":_.message})),()=>{l=!1}},[e,t]);let r=()=>n(l=>l+1),a=o.detail!==null,i=o.detail?o.detail.counts:null,u={role:e,tick:t,changed:r,ok:a};return d`
    <p><a href="#/roles">← All roles</a></p>
    <p id="role-desc" class="about">${o.detail?o.detail.description||"No description.":""}</p>
    <${H} text=${o.error} id="role-error" />
    <fieldset class="plain" disabled=${!a}>
      <legend class="visually-hidden">Role ${e}</legend>
      ${a&&d`<${en} role=${e} current=${o.detail.description||""}
        done=${l=>s({detail:{...o.detail,description:l},error:""})} />`}
      <div class="cols">
        <${tn} ...${u} total=${i?i.permissions:0} />
        <${nn} ...${u} total=${i?i.parents:0} />
      </div>
      ${a&&d`<${on} ...${u} count=${i.children} />
        <${rn} ...${u} inherits=${i.parents>0} />`}
      <${an} ...${u} total=${i?i.members:0} />
    </fieldset>`}function en({role:e,current:t,done:n}){let[o,s]=h(!1),[r,a]=h(t),i=D("describe");return d`<div class="describe">
    ${o?d`<form class="inline" onSubmit=${l=>{l.preventDefault(),i.run(async()=>{let _=await R("PUT","role/"+g(e),{body:{description:r}});return n(_.description),s(!1),_.description?"Description of "+e+" saved.":"Description of "+e+" cleared."})}}>
        <${E} id="role-desc-edit" label="Description" value=${r} onInput=${a} hint="Empty: no description." />
        <button type="submit" disabled=${i.busy}>Save description</button>
        <button type="button" onClick=${()=>{s(!1),a(t)}}>Cancel</button>
      </form>`:d`<button type="button" id="edit-desc" onClick=${()=>{a(t),s(!0)}}>Edit description</button>`}
    <${U} owner="describe" />
  </div>`}function Oe({id:e,label:t,button:n,add:o,extra:s,owner:r,list:a,kind:i}){let[u,l]=h(""),_=D(r);return d`<form class="inline" onSubmit=${c=>{c.preventDefault(),_.run(async()=>{let m=await o(u);return l(""),m})}}>
      <${E} id=${e} label=${t} value=${u} onInput=${l} required list=${a}
        note=${i?se(i,u):""} />
      ${s}
      <button type="submit" disabled=${_.busy}>${n}</button>
    </form>`}function qe({label:e,remove:t,owner:n}){let o=D(n);return d`<button type="button" class="danger" aria-label=${e} disabled=${o.busy}
    onClick=${()=>o.run(t)}>Remove</button>`}function tn({role:e,tick:t,changed:n,ok:o,total:s}){let r=T(i=>k("role_permissions/"+g(e),{limit:C,after:i}),i=>i.name,[e,t],o),a=i=>"permission/"+g(e)+"/"+g(i);return d`<section aria-labelledby="grants-h">
    <h2 id="grants-h">Permissions granted to ${e}</h2>
    <${Oe} id="grant-name" label="Permission" button="Grant" owner="grants" list=${B} kind="perms" add=${async i=>(await R("POST",a(i)),n(),"Granted "+i+" to "+e+".")} />
    <${U} owner="grants" />
    ${o&&d`<${A} p=${r} total=${s} label="Granted permissions" id="grants-list" empty="No permissions granted directly." render=${i=>d`
      <li key=${i.name} class="row"><a href=${x("whocan",i.name)}>${i.name}</a>
        <${qe} owner="grants" label=${"Remove permission "+i.name} remove=${async()=>(await R("DELETE",a(i.name)),n(),"Removed "+i.name+" from "+e+".")} /></li>`} />`}
  </section>`}function nn({role:e,tick:t,changed:n,ok:o,total:s}){let r=T(i=>k("role/"+g(e)+"/inherits",{limit:C,after:i}),i=>i.role,[e,t],o),a=i=>"role/"+g(e)+"/inherits/"+g(i);return d`<section aria-labelledby="parents-h">
    <h2 id="parents-h">${e} inherits from</h2>
    <${Oe} id="parent-name" label="Parent role" button="Inherit" owner="parents" list=${G} kind="roles" add=${async i=>(await R("POST",a(i)),n(),e+" now inherits from "+i+".")} />
    <${U} owner="parents" />
    ${o&&d`<${A} p=${r} total=${s} label="Parent roles" id="parents-list" empty="Inherits from no role." render=${i=>d`
      <li key=${i.role} class="row"><a href=${x("role",i.role)}>${i.role}</a>
        <${qe} owner="parents" label=${"Stop inheriting from "+i.role} remove=${async()=>(await R("DELETE",a(i.role)),n(),e+" no longer inherits from "+i.role+".")} /></li>`} />`}
  </section>`}function Nt({id:e,title:t,children:n,onToggle:o}){return d`<section aria-labelledby=${e+"-h"}>
    <details id=${e} onToggle=${s=>o(s.currentTarget.open)}>
      <summary><h2 id=${e+"-h"}>${t}</h2></summary>
      ${n}
    </details>
  </section>`}function on({role:e,tick:t,ok:n,count:o}){let[s,r]=h(!1),a=T(i=>k("role/"+g(e)+"/inherited_by",{limit:C,after:i}),i=>i.role,[e,t],n&&s&&o>0);return d`<${Nt} id="children" title=${"Roles inheriting from "+e+" ("+o+")"} onToggle=${r}>
    ${o===0?d`<p class="empty" id="children-list">None.</p>`:d`<${A} p=${a} label="Roles inheriting from it" id="children-list" empty="None." render=${i=>d`
      <li key=${i.role} class="row"><a href=${x("role",i.role)}>${i.role}</a></li>`} />`}
  <//>`}function rn({role:e,tick:t,ok:n,inherits:o}){let[s,r]=h(!1),a=T(i=>k("role_permissions/"+g(e),{limit:C,after:i,effective:"true"}),i=>i.name,[e,t],n&&s);return d`<${Nt} id="effective" title=${"Effective permissions of "+e} onToggle=${r}>
    <${A} p=${a} label="Effective permissions" id="effective-list" empty="None, granted or inherited." render=${i=>d`
      <li key=${i.name} class="row wrap"><span class="name">${i.name}</span>
        ${o?d`<${sn} role=${e} name=${i.name} />`:d`<span class="src">granted directly</span>`}</li>`} />
  <//>`}function sn({role:e,name:t}){let[n,o]=h(""),s=async()=>{try{let r=await k("permission/"+g(e)+"/"+g(t),{explain:"true"}),a=r.chain||[];o(r.result?a.length<=1?"granted directly":"inherited from "+a[a.length-1]+" ("+a.join(" \u2192 ")+")":"no longer held")}catch(r){o(r.message)}};return n?d`<span class="src" role="status">${n}</span>`:d`<button type="button" aria-label=${"Where does "+t+" come from?"} onClick=${s}>Where from?</button>`}function an({role:e,tick:t,changed:n,ok:o,total:s}){let[r,a]=h(""),[i,u]=h(""),[l,_]=h(""),p=J(l),c=T(f=>k("members/"+g(e),{limit:C,after:f,scope:i,prefix:p}),f=>f.user,[e,t,i,p],o),m=f=>"membership/"+g(f)+"/"+g(e),b=f=>f?" of "+e+" in scope "+f:" global member of "+e;return d`<section aria-labelledby="members-h">
    <h2 id="members-h">Members of ${e}</h2>
    <${Oe} id="member-user" label="User" button="Add member" owner="members" list=${O} add=${async f=>(await R("POST",m(f),{query:{scope:r}}),n(),f+" is now a"+(r?" member":"")+b(r)+".")} extra=${d`<${E} id="member-scope" label="Scope" value=${r} onInput=${a}
      hint="Empty: a global membership, which holds in every scope." />`} />
    <${U} owner="members" />
    <div class="inline">
      <p class="hint" id="members-shown">Showing ${i?"members in scope \u201C"+i+"\u201D (global ones included)":"global members"}.</p>
      <button type="button" id="show-scope" onClick=${()=>u(r.trim())}>${r.trim()?"Show members in scope \u201C"+r.trim()+"\u201D":"Show global members"}</button>
    </div>
    <${X} id="find-member" label="Find members" value=${l} onInput=${_} list=${O} />
    ${o&&d`<${A} p=${c} label="Members" id="members-list" total=${i||p?0:s}
      empty=${p?"No member starts with \u201C"+p+"\u201D.":"No members."} render=${f=>d`
      <li key=${f.user+"/"+(f.scope||"")} class="row"><a href=${x("user",f.user)}>${f.user}</a>
        <span class=${f.scope?"scope":"scope global"}>${f.scope?"in scope "+f.scope:"global"}</span>
        <${qe} owner="members" label=${"Remove "+f.user+(f.scope?" from scope "+f.scope:" (global member)")}
          remove=${async()=>{let $=await R("DELETE",m(f.user),{query:{scope:f.scope||void 0}});return n(),$.deleted?f.user+" is no longer a"+(f.scope?" member":"")+b(f.scope)+".":f.user+" was already not a"+(f.scope?" member":"")+b(f.scope)+"."}} /></li>`} />`}
  </section>`}function je({go:e,initial:t}){let[n,o]=h(t||"");return d`<form class="inline" onSubmit=${s=>{s.preventDefault(),n&&e(x("user",n))}}>
    <${E} id="lookup-user" label="User" value=${n} onInput=${o} required list=${O} />
    <button type="submit">Show user</button>
  </form>`}function Dt({go:e}){let[t,n]=h(""),o=J(t),s=T(r=>be("users",{limit:C,after:r,prefix:o}),r=>r.user,[o]);return d`
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">Look up a user</h2>
      <${je} go=${e} />
    </section>
    <section aria-labelledby="users-h">
      <h2 id="users-h">Users holding a membership</h2>
      <${X} id="find-user" label="Find users" value=${t} onInput=${n} list=${O} />
      <${A} p=${s} label="Users" id="users-list" counted=${["user","users"]} prefix=${o} empty=${o?"No user starts with \u201C"+o+"\u201D.":"No user holds a membership."}
        render=${r=>d`<li key=${r.user} class="row"><a href=${x("user",r.user)}>${r.user}</a></li>`} />
    </section>`}async function Ut(e,t,n){let o=await k("has_permission/"+g(e)+"/"+g(t),{scope:n,explain:"true"});return o.result?e+" can "+t+": yes, "+xt(o.grant)+".":e+" cannot "+t+(n?" in scope "+n:"")+"."}function It({user:e,go:t}){let[n,o]=h(""),[s,r]=h(""),a=T($=>k("user_roles/"+g(e),{limit:C,after:$,scope:s}),$=>$.role,[e,s]),i=T($=>k("user_permissions/"+g(e),{limit:C,after:$,scope:s}),$=>$.name,[e,s]),[u,l]=h(""),[_,p]=h(""),[c,m]=h({}),b=D("check");return d`
    <${je} go=${t} initial=${e} />
    <form class="inline" onSubmit=${$=>{$.preventDefault(),r(n)}}>
      <${E} id="user-scope" label="Scope" value=${n} onInput=${o} hint="Empty: global memberships only." />
      <button type="submit">Apply scope</button>
    </form>
    <section aria-labelledby="check-h">
      <h2 id="check-h">Can ${e} …?</h2>
      <form class="inline" onSubmit=${$=>{$.preventDefault(),p(""),b.run(async()=>{p(await Ut(e,u,s))})}}>
        <${E} id="check-perm" label="Permission" value=${u} onInput=${l} required list=${B}
          note=${se("perms",u)} />
        <button type="submit" disabled=${b.busy}>Check</button>
      </form>
      <${U} owner="check" />
      <p id="check-result" role="status" class=${_.includes(": yes")?"yes":"no"}>${_}</p>
    </section>
    <div class="cols">
      <section aria-labelledby="uroles-h">
        <h2 id="uroles-h">Roles${s?" in scope "+s:""}</h2>
        <${A} p=${a} label="Roles of the user" id="user-roles" empty="Member of no role." render=${$=>d`
          <li key=${$.role+"/"+($.scope||"")} class="row"><a href=${x("role",$.role)}>${$.role}</a>
            ${s&&d`<span class=${$.scope?"scope":"scope global"}>${$.scope?"in scope "+$.scope:"global"}</span>`}</li>`} />
      </section>
      <section aria-labelledby="uperms-h">
        <h2 id="uperms-h">Effective permissions</h2>
        <${A} p=${i} label="Effective permissions of the user" id="user-perms" empty="No permissions." render=${$=>d`
          <li key=${$.name} class="row wrap"><span class="name">${$.name}</span>
            <button type="button" aria-label=${"Why can "+e+" "+$.name+"?"}
              onClick=${async()=>{let y;try{y=await Ut(e,$.name,s)}catch(v){y=v.message}m({...c,[$.name]:y})}}>Why?</button>
            ${c[$.name]&&d`<span class="why" role="status">${c[$.name]}</span>`}</li>`} />
      </section>
    </div>`}function Mt({go:e}){let t=T(p=>k("scoped_memberships",{limit:C,after:p}),p=>p.scope+"/"+p.user+"/"+p.role,[]),[n,o]=h(""),[s,r]=h(""),[a,i]=h(""),u=D("add-membership"),l=D("scoped");return d`
    <section aria-labelledby="addm-h">
      <h2 id="addm-h">Add a membership</h2>
      <form class="inline" onSubmit=${p=>{p.preventDefault(),u.run(async()=>{await R("POST","membership/"+g(n)+"/"+g(s),{query:{scope:a}});let c=n+" is now a member of "+s+(a?" in scope "+a:" globally")+".";return o(""),t.reload(),c})}}>
        <${E} id="m-user" label="User" value=${n} onInput=${o} required list=${O} />
        <${E} id="m-role" label="Role" value=${s} onInput=${r} required list=${G} note=${se("roles",s)} />
        <${E} id="m-scope" label="Scope" value=${a} onInput=${i} hint="Empty: global, in every scope." />
        <button type="submit" disabled=${u.busy}>Add membership</button>
      </form>
      <${U} owner="add-membership" />
    </section>
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">A user's roles and permissions</h2>
      <${je} go=${e} />
      <p class="hint">Global members are listed on each role's page.</p>
    </section>
    <section aria-labelledby="scoped-h">
      <h2 id="scoped-h">Memberships in one scope</h2>
      <${U} owner="scoped" />
      <${A} p=${t} label="Scoped memberships" id="scoped-list" empty="No scoped memberships." render=${p=>d`
        <li key=${p.scope+"/"+p.user+"/"+p.role} class="row">
          <span class="scope">${p.scope}</span>
          <span class="grow"><a href=${x("user",p.user)}>${p.user}</a> is a member of <a href=${x("role",p.role)}>${p.role}</a></span>
          <button type="button" class="danger" aria-label=${"Remove "+p.user+" from "+p.role+" in scope "+p.scope}
            onClick=${()=>l.run(async()=>(await R("DELETE","membership/"+g(p.user)+"/"+g(p.role),{query:{scope:p.scope}}),t.reload(),p.user+" is no longer a member of "+p.role+" in scope "+p.scope+"."))}>Remove</button></li>`} />
    </section>`}function Lt({name:e,scope:t,go:n}){let[o,s]=h(e||""),[r,a]=h(t||""),i=T(l=>e?k("which_users_can/"+g(e),{limit:C,after:l,scope:t}):Promise.resolve([]),l=>l.user,[e,t]),u=T(l=>e?k("which_roles_can/"+g(e),{limit:C,after:l}):Promise.resolve([]),l=>l.role,[e]);return d`
    <form class="inline" onSubmit=${l=>{l.preventDefault(),o&&n(r.trim()?x("whocan",o,r.trim()):x("whocan",o))}}>
      <${E} id="whocan-perm" label="Permission" value=${o} onInput=${s} required list=${B} />
      <${E} id="whocan-scope" label="Scope" value=${r} onInput=${a} hint="Empty: global memberships only." />
      <button type="submit">Who can?</button>
    </form>
    ${e&&d`<div class="cols">
      <section aria-labelledby="wu-h">
        <h2 id="wu-h">Users who can ${e}${t?" in scope "+t:""}</h2>
        <${A} p=${i} label="Users" id="whocan-users" empty="Nobody." render=${l=>d`
          <li key=${l.user} class="row"><a href=${x("user",l.user)}>${l.user}</a></li>`} />
      </section>
      <section aria-labelledby="wr-h">
        <h2 id="wr-h">Roles that hold ${e}</h2>
        <${A} p=${u} label="Roles" id="whocan-roles" empty="No role." render=${l=>d`
          <li key=${l.role} class="row"><a href=${x("role",l.role)}>${l.role}</a></li>`} />
      </section>
    </div>`}`}var ln=["add_role","set_description","del_role","add_permission","del_permission","add_membership","del_membership","add_inheritance","del_inheritance","batch"];function Ft(){let[e,t]=h(""),[n,o]=h(""),s=T(r=>k("audit",{limit:C,before:r,action:n}),r=>r.id,[n]);return d`
    <form class="inline" onSubmit=${r=>{r.preventDefault(),o(e.trim())}}>
      <${E} id="audit-action" label="Action" value=${e} onInput=${t} list="audit-actions"
        hint="Empty: every action." />
      <datalist id="audit-actions">${ln.map(r=>d`<option value=${r} />`)}</datalist>
      <button type="submit">Filter</button>
    </form>
    <${H} text=${s.error} />
    <div class="table-wrap">
      <table id="audit-table" aria-busy=${s.loading}>
        <caption>Audit records, newest first${n?", action "+n:""}</caption>
        <thead><tr><th scope="col">When (UTC)</th><th scope="col">Action</th><th scope="col">Resource</th>
          <th scope="col">Outcome</th><th scope="col">Request</th></tr></thead>
        <tbody>${s.items.map(r=>d`<tr key=${r.id}>
          <td data-label="When"><time datetime=${r.at}>${r.at.replace("T"," ").replace(/\.\d+Z$/,"")}</time></td>
          <td data-label="Action">${r.action}</td><td data-label="Resource">${r.resource}</td>
          <td data-label="Outcome">${r.outcome}</td><td data-label="Request" class="mono">${r.request_id}</td></tr>`)}</tbody>
      </table>
    </div>
    ${!s.loading&&!s.error&&s.items.length===0&&d`<p class="empty">No records.</p>`}
    <nav class="pager" aria-label="Audit pages">
      <button type="button" onClick=${s.prev} disabled=${!s.hasPrev}>Newer</button>
      <span>Page ${s.page}</span>
      <button type="button" onClick=${s.next} disabled=${!s.hasNext}>Older</button>
    </nav>`}function Ht(){let e=location.hash.replace(/^#\/?/,"").split("/").map(t=>{try{return decodeURIComponent(t)}catch{return""}});return{page:e[0]||"roles",arg:e[1]||"",arg2:e[2]||""}}var cn=[["roles","Roles"],["members","Members"],["user","Users"],["whocan","Who can"],["audit","Audit log"]];function un({onIn:e,reason:t}){let[n,o]=h(""),[s,r]=h(t),[a,i]=h(!1);return d`<main class="signin" id="main">
    <h1>rolegate console</h1>
    <form onSubmit=${async l=>{l.preventDefault(),i(!0),r("");try{await R("GET","roles",{query:{limit:1},key:n.trim()}),lt(n.trim()),e()}catch(_){r(_.message)}finally{i(!1)}}}>
      <${E} id="client-key" type="password" label="Client key" value=${n} onInput=${o} required
        hint="An admin key (AUTH_CLIENT_KEY or AUTH_CLIENT_KEYS). It stays in this tab only and is forgotten when the tab closes." />
      <button type="submit" disabled=${a}>Sign in</button>
    </form>
    <${H} text=${s} id="signin-error" />
  </main>`}function _n(){let[e,t]=h(!!De()),[n,o]=h(""),[s,r]=h(Ht()),a=z();if(N(()=>{let _=()=>{r(Ht()),Rt()};return addEventListener("hashchange",_),ut(p=>{Ie(),o(p),t(!1)}),()=>removeEventListener("hashchange",_)},[]),N(()=>{a.current&&a.current.focus()},[s.page,s.arg,e]),!e)return d`<${un} reason=${n} onIn=${()=>{o(""),t(!0)}} />`;let i=_=>{location.hash=_},u,l;switch(s.page){case"role":u="Role "+s.arg,l=d`<${At} role=${s.arg} />`;break;case"members":u="Members",l=d`<${Mt} go=${i} />`;break;case"user":u=s.arg?"User "+s.arg:"Users",l=s.arg?d`<${It} user=${s.arg} go=${i} />`:d`<${Dt} go=${i} />`;break;case"whocan":u=s.arg?"Who can "+s.arg:"Who can",l=d`<${Lt} name=${s.arg} scope=${s.arg2} go=${i} />`;break;case"audit":u="Audit log",l=d`<${Ft} />`;break;default:u="Roles",l=d`<${Tt} />`}return document.title=u+" \xB7 rolegate console",d`
    <a class="skip" href="#main" onClick=${_=>{_.preventDefault(),a.current&&a.current.focus()}}>Skip to content</a>
    <header>
      <span class="brand">rolegate</span>
      <nav aria-label="Console">
        <ul>${cn.map(([_,p])=>d`<li><a href=${"#/"+_} aria-current=${s.page===_?"page":void 0}>${p}</a></li>`)}</ul>
      </nav>
      <button type="button" class="signout" onClick=${()=>{Ie(),t(!1)}}>Sign out</button>
    </header>
    <main id="main">
      <h1 tabindex="-1" ref=${a}>${u}</h1>
      <div key=${s.page+"/"+s.arg+"/"+s.arg2} class="page">${l}</div>
    </main>
    <${Ct} />`}xe(d`<${_n} />`,document.getElementById("app"));
