var de,w,Ke,Ht,W,je,ze,Je,ve,le,Z,Xe,Se,we,ke,Wt,ue={},_e=[],Ot=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,me=Array.isArray;function L(e,t){for(var n in t)e[n]=t[n];return e}function Ee(e){e&&e.parentNode&&e.parentNode.removeChild(e)}function fe(e,t,n){var o,s,r,l={};for(r in t)r=="key"?o=t[r]:r=="ref"?s=t[r]:l[r]=t[r];if(arguments.length>2&&(l.children=arguments.length>3?de.call(arguments,2):n),typeof e=="function"&&e.defaultProps!=null)for(r in e.defaultProps)l[r]===void 0&&(l[r]=e.defaultProps[r]);return ce(e,l,o,s,null)}function ce(e,t,n,o,s){var r={type:e,props:t,key:n,ref:o,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:s??++Ke,__i:-1,__u:0};return s==null&&w.vnode!=null&&w.vnode(r),r}function he(e){return e.children}function ee(e,t){this.props=e,this.context=t}function j(e,t){if(t==null)return e.__?j(e.__,e.__i+1):null;for(var n;t<e.__k.length;t++)if((n=e.__k[t])!=null&&n.__e!=null)return n.__e;return typeof e.type=="function"?j(e):null}function qt(e){if(e.__P&&e.__d){var t=e.__v,n=t.__e,o=[],s=[],r=L({},t);r.__v=t.__v+1,w.vnode&&w.vnode(r),Pe(e.__P,r,t,e.__n,e.__P.namespaceURI,32&t.__u?[n]:null,o,n??j(t),!!(32&t.__u),s),r.__v=t.__v,r.__.__k[r.__i]=r,tt(o,r,s),t.__e=t.__=null,r.__e!=n&&Ye(r)}}function Ye(e){if((e=e.__)!=null&&e.__c!=null)return e.__e=e.__c.base=null,e.__k.some(function(t){if(t!=null&&t.__e!=null)return e.__e=e.__c.base=t.__e}),Ye(e)}function Ge(e){(!e.__d&&(e.__d=!0)&&W.push(e)&&!pe.__r++||je!=w.debounceRendering)&&((je=w.debounceRendering)||ze)(pe)}function pe(){try{for(var e,t=1;W.length;)W.length>t&&W.sort(Je),e=W.shift(),t=W.length,qt(e)}finally{W.length=pe.__r=0}}function Qe(e,t,n,o,s,r,l,i,u,a,_){var d,c,m,b,f,$,y=o&&o.__k||_e,v=t.length;for(u=jt(n,t,y,u,v),d=0;d<v;d++)(m=n.__k[d])!=null&&(c=m.__i!=-1&&y[m.__i]||ue,m.__i=d,$=Pe(e,m,c,s,r,l,i,u,a,_),b=m.__e,m.ref&&c.ref!=m.ref&&(c.ref&&Ce(c.ref,null,m),_.push(m.ref,m.__c||b,m)),f==null&&b!=null&&(f=b),4&m.__u?(u=Ze(m,u,e),c.__e&&(c.__e=null)):typeof m.type=="function"&&$!==void 0?u=$:b&&(u=b.nextSibling),m.__u&=-7);return n.__e=f,u}function jt(e,t,n,o,s){var r,l,i,u,a,_=n.length,d=_,c=0;for(e.__k=new Array(s),r=0;r<s;r++)(l=t[r])!=null&&typeof l!="boolean"&&typeof l!="function"?(typeof l=="string"||typeof l=="number"||typeof l=="bigint"||l.constructor==String?l=e.__k[r]=ce(null,l,null,null,null):me(l)?l=e.__k[r]=ce(he,{children:l},null,null,null):l.constructor===void 0&&l.__b>0?l=e.__k[r]=ce(l.type,l.props,l.key,l.ref?l.ref:null,l.__v):e.__k[r]=l,u=r+c,l.__=e,l.__b=e.__b+1,i=null,(a=l.__i=Gt(l,n,u,d))!=-1&&(d--,(i=n[a])&&(i.__u|=2)),i==null||i.__v==null?(a==-1&&(s>_?c--:s<_&&c++),typeof l.type!="function"&&(l.__u|=4)):a!=u&&(a==u-1?c--:a==u+1?c++:(a>u?c--:c++,l.__u|=4))):e.__k[r]=null;if(d)for(r=0;r<_;r++)(i=n[r])!=null&&(2&i.__u)==0&&(i.__e==o&&(o=j(i)),ot(i,i));return o}function Ze(e,t,n){var o,s;if(typeof e.type=="function"){for(o=e.__k,s=0;o&&s<o.length;s++)o[s]&&(o[s].__=e,t=Ze(o[s],t,n));return t}e.__e!=t&&(t&&e.type&&!t.parentNode&&(t=j(e)),t=n.insertBefore(e.__e,t||null));do t=t&&t.nextSibling;while(t!=null&&t.nodeType==8);return t}function Gt(e,t,n,o){var s,r,l,i=e.key,u=e.type,a=t[n],_=a!=null&&(2&a.__u)==0;if(a===null&&i==null||_&&i==a.key&&u==a.type)return n;if(o>(_?1:0)){for(s=n-1,r=n+1;s>=0||r<t.length;)if((a=t[l=s>=0?s--:r++])!=null&&(2&a.__u)==0&&i==a.key&&u==a.type)return l}return-1}function Be(e,t,n){t[0]=="-"?e.setProperty(t,n??""):e[t]=n==null?"":typeof n!="number"||Ot.test(t)?n:n+"px"}function ae(e,t,n,o,s){var r,l;e:if(t=="style")if(typeof n=="string")e.style.cssText=n;else{if(typeof o=="string"&&(e.style.cssText=o=""),o)for(t in o)n&&t in n||Be(e.style,t,"");if(n)for(t in n)o&&n[t]==o[t]||Be(e.style,t,n[t])}else if(t[0]=="o"&&t[1]=="n")r=t!=(t=t.replace(Xe,"$1")),l=t.toLowerCase(),t=l in e||t=="onFocusOut"||t=="onFocusIn"?l.slice(2):t.slice(2),e.l||(e.l={}),e.l[t+r]=n,n?o?n[Z]=o[Z]:(n[Z]=Se,e.addEventListener(t,r?ke:we,r)):e.removeEventListener(t,r?ke:we,r);else{if(s=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{e[t]=n??"";break e}catch{}typeof n=="function"||(n==null||n===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&n==1?"":n))}}function Ve(e){return function(t){if(this.l){var n=this.l[t.type+e];if(t[le]==null)t[le]=Se++;else if(t[le]<n[Z])return;return n(w.event?w.event(t):t)}}}function Pe(e,t,n,o,s,r,l,i,u,a){var _,d,c,m,b,f,$,y,v,I,Y,q,Q,qe,ie,ye,M=t.type;if(t.constructor!==void 0)return null;128&n.__u&&(u=!!(32&n.__u),r=[i=t.__e=n.__e]),(_=w.__b)&&_(t);e:if(typeof M=="function"){d=l.length;try{if(v=t.props,I=M.prototype&&M.prototype.render,Y=(_=M.contextType)&&o[_.__c],q=_?Y?Y.props.value:_.__:o,n.__c?y=(c=t.__c=n.__c).__=c.__E:(I?t.__c=c=new M(v,q):(t.__c=c=new ee(v,q),c.constructor=M,c.render=Vt),Y&&Y.sub(c),c.state||(c.state={}),c.__n=o,m=c.__d=!0,c.__h=[],c._sb=[]),I&&c.__s==null&&(c.__s=c.state),I&&M.getDerivedStateFromProps!=null&&(c.__s==c.state&&(c.__s=L({},c.__s)),L(c.__s,M.getDerivedStateFromProps(v,c.__s))),b=c.props,f=c.state,c.__v=t,m)I&&M.getDerivedStateFromProps==null&&c.componentWillMount!=null&&c.componentWillMount(),I&&c.componentDidMount!=null&&c.__h.push(c.componentDidMount);else{if(I&&M.getDerivedStateFromProps==null&&v!==b&&c.componentWillReceiveProps!=null&&c.componentWillReceiveProps(v,q),t.__v==n.__v||!c.__e&&c.shouldComponentUpdate!=null&&c.shouldComponentUpdate(v,c.__s,q)===!1){t.__v!=n.__v&&(c.props=v,c.state=c.__s,c.__d=!1),t.__e=n.__e,t.__k=n.__k,t.__k.some(function(K){K&&(K.__=t)}),_e.push.apply(c.__h,c._sb),c._sb=[],c.__h.length&&l.push(c),i=j(n);break e}c.componentWillUpdate!=null&&c.componentWillUpdate(v,c.__s,q),I&&c.componentDidUpdate!=null&&c.__h.push(function(){c.componentDidUpdate(b,f,$)})}if(c.context=q,c.props=v,c.__P=e,c.__e=!1,Q=w.__r,qe=0,I)c.state=c.__s,c.__d=!1,Q&&Q(t),_=c.render(c.props,c.state,c.context),_e.push.apply(c.__h,c._sb),c._sb=[];else do c.__d=!1,Q&&Q(t),_=c.render(c.props,c.state,c.context),c.state=c.__s;while(c.__d&&++qe<25);c.state=c.__s,c.getChildContext!=null&&(o=L(L({},o),c.getChildContext())),I&&!m&&c.getSnapshotBeforeUpdate!=null&&($=c.getSnapshotBeforeUpdate(b,f)),ie=_!=null&&_.type===he&&_.key==null?nt(_.props.children):_,i=Qe(e,me(ie)?ie:[ie],t,n,o,s,r,l,i,u,a),c.base=t.__e,t.__u&=-161,c.__h.length&&l.push(c),y&&(c.__E=c.__=null)}catch(K){if(l.length=d,t.__v=null,u||r!=null){if(K.then){for(t.__u|=u?160:128;i&&i.nodeType==8&&i.nextSibling;)i=i.nextSibling;r!=null&&(r[r.indexOf(i)]=null),t.__e=i}else if(r!=null)for(ye=r.length;ye--;)Ee(r[ye])}else t.__e=n.__e;t.__k==null&&(t.__k=n.__k||[]),K.then||et(t),w.__e(K,t,n)}}else r==null&&t.__v==n.__v?(t.__k=n.__k,t.__e=n.__e):i=t.__e=Bt(n.__e,t,n,o,s,r,l,u,a);return(_=w.diffed)&&_(t),128&t.__u?void 0:i}function et(e){e&&(e.__c&&(e.__c.__e=!0),e.__k&&e.__k.some(et))}function tt(e,t,n){for(var o=0;o<n.length;o++)Ce(n[o],n[++o],n[++o]);w.__c&&w.__c(t,e),e.some(function(s){try{e=s.__h,s.__h=[],e.some(function(r){r.call(s)})}catch(r){w.__e(r,s.__v)}})}function nt(e){return typeof e!="object"||e==null||e.__b>0?e:me(e)?e.map(nt):e.constructor!==void 0?null:L({},e)}function Bt(e,t,n,o,s,r,l,i,u){var a,_,d,c,m,b,f,$=n.props||ue,y=t.props,v=t.type;if(v=="svg"?s="http://www.w3.org/2000/svg":v=="math"?s="http://www.w3.org/1998/Math/MathML":s||(s="http://www.w3.org/1999/xhtml"),r!=null){for(a=0;a<r.length;a++)if((m=r[a])&&"setAttribute"in m==!!v&&(v?m.localName==v:m.nodeType==3)){e=m,r[a]=null;break}}if(e==null){if(v==null)return document.createTextNode(y);e=document.createElementNS(s,v,y.is&&y),i&&(w.__m&&w.__m(t,r),i=!1),r=null}if(v==null)$===y||i&&e.data==y||(e.data=y);else{if(r=v=="textarea"&&y.defaultValue!=null?null:r&&de.call(e.childNodes),!i&&r!=null)for($={},a=0;a<e.attributes.length;a++)$[(m=e.attributes[a]).name]=m.value;for(a in $)m=$[a],a=="dangerouslySetInnerHTML"?d=m:a=="children"||a in y||a=="value"&&"defaultValue"in y||a=="checked"&&"defaultChecked"in y||ae(e,a,null,m,s);for(a in y)m=y[a],a=="children"?c=m:a=="dangerouslySetInnerHTML"?_=m:a=="value"?b=m:a=="checked"?f=m:i&&typeof m!="function"||$[a]===m||ae(e,a,m,$[a],s);if(_)i||d&&(_.__html==d.__html||_.__html==e.innerHTML)||(e.innerHTML=_.__html),t.__k=[];else if(d&&(e.innerHTML=""),Qe(t.type=="template"?e.content:e,me(c)?c:[c],t,n,o,v=="foreignObject"?"http://www.w3.org/1999/xhtml":s,r,l,r?r[0]:n.__k&&j(n,0),i,u),r!=null)for(a=r.length;a--;)Ee(r[a]);i&&v!="textarea"||(a="value",v=="progress"&&b==null?e.removeAttribute("value"):b!=null&&(b!==e[a]||v=="progress"&&!b||v=="option"&&b!=$[a])&&ae(e,a,b,$[a],s),a="checked",f!=null&&f!=e[a]&&ae(e,a,f,$[a],s))}return e}function Ce(e,t,n){try{if(typeof e=="function"){var o=typeof e.__u=="function";o&&e.__u(),o&&t==null||(e.__u=e(t))}else e.current=t}catch(s){w.__e(s,n)}}function ot(e,t,n){var o,s;if(w.unmount&&w.unmount(e),(o=e.ref)&&(o.current&&o.current!=e.__e||Ce(o,null,t)),(o=e.__c)!=null){if(o.componentWillUnmount)try{o.componentWillUnmount()}catch(r){w.__e(r,t)}o.base=o.__P=o.__n=null}if(o=e.__k)for(s=0;s<o.length;s++)o[s]&&ot(o[s],t,n||typeof e.type!="function");n||Ee(e.__e),e.__c=e.__=e.__e=void 0}function Vt(e,t,n){return this.constructor(e,n)}function Re(e,t,n){var o,s,r,l;t==document&&(t=document.documentElement),w.__&&w.__(e,t),s=(o=typeof n=="function")?null:n&&n.__k||t.__k,r=[],l=[],Pe(t,e=(!o&&n||t).__k=fe(he,null,[e]),s||ue,ue,t.namespaceURI,!o&&n?[n]:s?null:t.firstChild?de.call(t.childNodes):null,r,!o&&n?n:s?s.__e:t.firstChild,o,l),tt(r,e,l),e.props.children=null}de=_e.slice,w={__e:function(e,t,n,o){for(var s,r,l;t=t.__;)if((s=t.__c)&&!s.__)try{if((r=s.constructor)&&r.getDerivedStateFromError!=null&&(s.setState(r.getDerivedStateFromError(e)),l=s.__d),s.componentDidCatch!=null&&(s.componentDidCatch(e,o||{}),l=s.__d),l)return s.__E=s}catch(i){e=i}throw e}},Ke=0,Ht=function(e){return e!=null&&e.constructor===void 0},ee.prototype.setState=function(e,t){var n;n=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=L({},this.state),typeof e=="function"&&(e=e(L({},n),this.props)),e&&L(n,e),e!=null&&this.__v&&(t&&this._sb.push(t),Ge(this))},ee.prototype.forceUpdate=function(e){this.__v&&(this.__e=!0,e&&this.__h.push(e),Ge(this))},ee.prototype.render=he,W=[],ze=typeof Promise=="function"?Promise.prototype.then.bind(Promise.resolve()):setTimeout,Je=function(e,t){return e.__v.__b-t.__v.__b},pe.__r=0,ve=Math.random().toString(8),le="__d"+ve,Z="__a"+ve,Xe=/(PointerCapture)$|Capture$/i,Se=0,we=Ve(!1),ke=Ve(!0),Wt=0;var F={roles:new Set,perms:new Set,users:new Set},$e=new Set,xe=!1;function Te(e,t){return typeof t!="string"||t===""||e.has(t)?!1:(e.size>=5e3&&e.delete(e.values().next().value),e.add(t),!0)}function rt(e){let t=!1;for(let n of Array.isArray(e)?e:[e])!n||typeof n!="object"||(t=Te(F.roles,n.role)|t,t=Te(F.perms,n.name)|t,t=Te(F.users,n.user)|t);t&&!xe&&(xe=!0,queueMicrotask(()=>{xe=!1,$e.forEach(n=>n())}))}function st(e,t){F[e].delete(t)&&$e.forEach(n=>n())}function it(e){return $e.add(e),()=>$e.delete(e)}var Ae="rolegate.console.key",Kt=location.pathname.replace(/console\/[^/]*$/,""),Ne=()=>sessionStorage.getItem(Ae)||"",at=e=>sessionStorage.setItem(Ae,e),Ue=()=>sessionStorage.removeItem(Ae),te=class extends Error{constructor(t,n){super(n),this.status=t}},lt=()=>{},ct=e=>{lt=e},g=encodeURIComponent;async function x(e,t,{query:n,body:o,key:s}={}){if(t.split("/").some(_=>_==="."||_===".."))throw new te(400,'The names "." and ".." cannot be sent in a URL path from a browser (it would reach another route); use rolegatectl or the REST API');let r=new URL(Kt+"api/"+t,location.origin);for(let[_,d]of Object.entries(n||{}))d!=null&&d!==""&&r.searchParams.set(_,String(d));let l={Authorization:"Bearer "+(s??Ne()),Accept:"application/json"},i={method:e,headers:l,credentials:"omit",cache:"no-store",referrerPolicy:"no-referrer"};o!==void 0&&(l["Content-Type"]="application/json",i.body=JSON.stringify(o));let u;try{u=await fetch(r,i)}catch(_){throw new te(0,"The server cannot be reached ("+_.message+")")}let a=null;try{a=await u.json()}catch{}if(!u.ok||!a||a.success!==!0){let _=a&&a.message?a.message:u.status+" "+u.statusText;throw a&&a.error&&a.error!==a.message&&(_+=": "+a.error),u.status===401&&s===void 0&&lt(_),new te(u.status,_)}return a.data}async function k(e,t){let n=await x("GET",e,{query:t});return rt(n),n}var _t=function(e,t,n,o){var s;t[0]=0;for(var r=1;r<t.length;r++){var l=t[r++],i=t[r]?(t[0]|=l?1:2,n[t[r++]]):t[++r];l===3?o[0]=i:l===4?o[1]=Object.assign(o[1]||{},i):l===5?(o[1]=o[1]||{})[t[++r]]=i:l===6?o[1][t[++r]]+=i+"":l?(s=e.apply(i,_t(e,i,n,["",null])),o.push(s),i[0]?t[0]|=2:(t[r-2]=0,t[r]=s)):o.push(i)}return o},ut=new Map;function pt(e){var t=ut.get(this);return t||(t=new Map,ut.set(this,t)),(t=_t(this,t.get(e)||(t.set(e,t=(function(n){for(var o,s,r=1,l="",i="",u=[0],a=function(c){r===1&&(c||(l=l.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,c,l):r===3&&(c||l)?(u.push(3,c,l),r=2):r===2&&l==="..."&&c?u.push(4,c,0):r===2&&l&&!c?u.push(5,0,!0,l):r>=5&&((l||!c&&r===5)&&(u.push(r,0,l,s),r=6),c&&(u.push(r,c,0,s),r=6)),l=""},_=0;_<n.length;_++){_&&(r===1&&a(),a(_));for(var d=0;d<n[_].length;d++)o=n[_][d],r===1?o==="<"?(a(),u=[u],r=3):l+=o:r===4?l==="--"&&o===">"?(r=1,l=""):l=o+l[0]:i?o===i?i="":l+=o:o==='"'||o==="'"?i=o:o===">"?(a(),r=1):r&&(o==="="?(r=5,s=l,l=""):o==="/"&&(r<5||n[_][d+1]===">")?(a(),r===3&&(u=u[0]),r=u,(u=u[0]).push(2,0,r),r=0):o===" "||o==="	"||o===`
`||o==="\r"?(a(),r=2):l+=o),r===3&&l==="!--"&&(r=4,u=u[0])}return a(),u})(e)),t),arguments,[])).length>1?t:t[0]}var p=pt.bind(fe);var ne,S,De,dt,oe=0,vt=[],P=w,mt=P.__b,ft=P.__r,ht=P.diffed,$t=P.__c,bt=P.unmount,gt=P.__;function Me(e,t){P.__h&&P.__h(S,e,oe||t),oe=0;var n=S.__H||(S.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function h(e){return oe=1,zt(Et,e)}function zt(e,t,n){var o=Me(ne++,2);if(o.t=e,!o.__c&&(o.__=[n?n(t):Et(void 0,t),function(i){var u=o.__N?o.__N[0]:o.__[0],a=o.t(u,i);u!==a&&(o.__N=[a,o.__[1]],o.__c.setState({}))}],o.__c=S,!S.__f)){var s=function(i,u,a){if(!o.__c.__H)return!0;var _=!1,d=o.__c.props!==i;if(o.__c.__H.__.some(function(m){if(m.__N){_=!0;var b=m.__[0];m.__=m.__N,m.__N=void 0,b!==m.__[0]&&(d=!0)}}),r){var c=r.call(this,i,u,a);return _?c||d:c}return!_||d};S.__f=!0;var r=S.shouldComponentUpdate,l=S.componentWillUpdate;S.componentWillUpdate=function(i,u,a){if(this.__e){var _=r;r=void 0,s(i,u,a),r=_}l&&l.call(this,i,u,a)},S.shouldComponentUpdate=s}return o.__N||o.__}function N(e,t){var n=Me(ne++,3);!P.__s&&St(n.__H,t)&&(n.__=e,n.u=t,S.__H.__h.push(n))}function z(e){return oe=5,wt(function(){return{current:e}},[])}function wt(e,t){var n=Me(ne++,7);return St(n.__H,t)&&(n.__=e(),n.__H=t,n.__h=e),n.__}function kt(e,t){return oe=8,wt(function(){return e},t)}function Jt(){for(var e;e=vt.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(be),t.__h.some(Ie),t.__h=[]}catch(n){t.__h=[],P.__e(n,e.__v)}}}P.__b=function(e){S=null,mt&&mt(e)},P.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),gt&&gt(e,t)},P.__r=function(e){ft&&ft(e),ne=0;var t=(S=e.__c).__H;t&&(De===S?(t.__h=[],S.__h=[],t.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})):(t.__h.some(be),t.__h.some(Ie),t.__h=[],ne=0)),De=S},P.diffed=function(e){ht&&ht(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&(vt.push(t)!==1&&dt===P.requestAnimationFrame||((dt=P.requestAnimationFrame)||Xt)(Jt)),t.__H.__.some(function(n){n.u&&(n.__H=n.u,n.u=void 0)})),De=S=null},P.__c=function(e,t){t.some(function(n){try{n.__h.some(be),n.__h=n.__h.filter(function(o){return!o.__||Ie(o)})}catch(o){t.some(function(s){s.__h&&(s.__h=[])}),t=[],P.__e(o,n.__v)}}),$t&&$t(e,t)},P.unmount=function(e){bt&&bt(e);var t,n=e.__c;n&&n.__H&&(n.__H.__.some(function(o){try{be(o)}catch(s){t=s}}),n.__H=void 0,t&&P.__e(t,n.__v))};var yt=typeof requestAnimationFrame=="function";function Xt(e){var t,n=function(){clearTimeout(o),yt&&cancelAnimationFrame(t),setTimeout(e)},o=setTimeout(n,35);yt&&(t=requestAnimationFrame(n))}function be(e){var t=S,n=e.__c;typeof n=="function"&&(e.__c=void 0,n()),S=t}function Ie(e){var t=S;e.__c=e.__(),S=t}function St(e,t){return!e||e.length!==t.length||t.some(function(n,o){return n!==e[o]})}function Et(e,t){return typeof t=="function"?t(e):t}var C=50;function T(e,t,n,o=!0){let s=JSON.stringify(n),[r,l]=h({key:s,cursors:[void 0]}),i=r.key===s?r.cursors:[void 0],[u,a]=h({items:[],loading:!0,error:""}),[_,d]=h(0),c=i[i.length-1];N(()=>{if(!o){a({items:[],loading:!1,error:""});return}let b=!0;return a(f=>({...f,loading:!0})),e(c).then(f=>b&&a({items:f||[],loading:!1,error:""}),f=>b&&a({items:[],loading:!1,error:f.message})),()=>{b=!1}},[s,c,_,o]);let m=u.items;return{...u,page:i.length,hasNext:m.length>=C,hasPrev:i.length>1,next:()=>m.length&&l({key:s,cursors:[...i,t(m[m.length-1])]}),prev:()=>l({key:s,cursors:i.slice(0,-1)}),reload:()=>d(b=>b+1)}}function Yt({p:e,label:t,total:n}){if(!e.hasPrev&&!e.hasNext)return null;let o=n>0?Math.max(1,Math.ceil(n/C)):0;return p`<nav class="pager" aria-label=${t+" pages"}>
    <button type="button" onClick=${e.prev} disabled=${!e.hasPrev}>Previous page</button>
    <span>Page ${e.page}${o?" of "+o:""}</span>
    <button type="button" onClick=${e.next} disabled=${!e.hasNext}>Next page</button>
  </nav>`}function H({text:e,id:t}){return e?p`<p class="error" role="alert" id=${t}>${e}</p>`:null}function E({id:e,label:t,value:n,onInput:o,required:s,placeholder:r,type:l,hint:i,list:u,note:a}){let _=[i&&e+"-hint",a&&e+"-new"].filter(Boolean).join(" ");return p`<div class="field">
    <label for=${e}>${t}${s?"":p` <span class="opt">(optional)</span>`}</label>
    <input id=${e} name=${e} type=${l||"text"} value=${n} required=${s} placeholder=${r}
      list=${u} autocomplete="off" spellcheck=${!1} aria-describedby=${_||void 0}
      onInput=${d=>o(d.currentTarget.value)} />
    ${i&&p`<small id=${e+"-hint"}>${i}</small>`}
    ${a&&p`<small class="note" id=${e+"-new"}>${a}</small>`}
  </div>`}var G="known-roles",B="known-perms",O="known-users";function Pt(){let[,e]=h(0);N(()=>it(()=>e(n=>n+1)),[]);let t=n=>[...n].sort().map(o=>p`<option key=${o} value=${o} />`);return p`<datalist id=${G}>${t(F.roles)}</datalist>
    <datalist id=${B}>${t(F.perms)}</datalist>
    <datalist id=${O}>${t(F.users)}</datalist>`}function se(e,t){let n=t.trim();if(!n||F[e].has(n))return"";let o={perms:"permission",roles:"role",users:"user"}[e];return"\u201C"+n+"\u201D is not a "+o+" name seen so far: check the spelling."}var Le={owner:"",text:"",kind:""},Fe=new Set;function re(e,t,n="ok"){Le={owner:e,text:t,kind:n},Fe.forEach(o=>o())}var Ct=()=>re("","","");function U({owner:e}){let[,t]=h(0);N(()=>{let r=()=>t(l=>l+1);return Fe.add(r),()=>Fe.delete(r)},[]);let n=Le.owner===e?Le:null,o=n?n.text:"",s=n?n.kind:"";return p`<p id=${e+"-status"} class=${"msg "+s} role=${s==="error"?"alert":"status"}
    aria-live=${s==="error"?"assertive":"polite"}>${o}</p>`}function D(e){let[t,n]=h(!1),[o,s]=h(""),r=kt(async l=>{n(!0),s("");try{let i=await l();return e&&typeof i=="string"&&re(e,i,"ok"),i}catch(i){e?re(e,i.message,"error"):s(i.message);return}finally{n(!1)}},[e]);return{busy:t,error:o,run:r,setError:s}}function A({p:e,label:t,empty:n,render:o,id:s,total:r}){return p`<div class="list" id=${s} aria-busy=${e.loading}>
    <${H} text=${e.error} />
    ${!e.loading&&!e.error&&e.items.length===0&&p`<p class="empty">${n}</p>`}
    ${e.items.length>0&&p`<ul aria-label=${t}>${e.items.map(o)}</ul>`}
    <${Yt} p=${e} label=${t} total=${r} />
  </div>`}var R=(...e)=>"#/"+e.map(encodeURIComponent).join("/");function Rt(e){let t=e.scope?"in scope \u201C"+e.scope+"\u201D":"globally",n=e.chain.length>1?", which inherits along "+e.chain.join(" \u2192 "):"";return"member of "+e.membership+" "+t+n+"; granted to "+e.granted_by}function J({id:e,label:t,value:n,onInput:o,list:s}){return p`<div class="search" role="search">
    <${E} id=${e} label=${t} value=${n} onInput=${o} list=${s} type="search"
      hint="Names starting with this text; empty: all." />
  </div>`}function X(e,t=250){let[n,o]=h(e);return N(()=>{let s=setTimeout(()=>o(e),t);return()=>clearTimeout(s)},[e,t]),n}function xt(){let[e,t]=h(""),n=X(e),o=T(m=>k("roles",{limit:C,after:m,prefix:n}),m=>m.role,[n]),[s,r]=h(""),[l,i]=h(""),[u,a]=h(""),_=z(null);N(()=>{!u&&_.current&&_.current.isConnected&&_.current.focus()},[u]);let d=D("new-role");return p`
    <section aria-labelledby="new-role-h">
      <h2 id="new-role-h">New role</h2>
      <form class="inline" onSubmit=${m=>{m.preventDefault(),d.run(async()=>{let f="Role "+(await x("POST","role/"+g(s),{body:l?{description:l}:void 0})).role+" created.";return r(""),i(""),o.reload(),f})}}>
        <${E} id="new-role" label="Role name" value=${s} onInput=${r} required />
        <${E} id="new-role-desc" label="Description" value=${l} onInput=${i} />
        <button type="submit" disabled=${d.busy}>Create role</button>
      </form>
      <${U} owner="new-role" />
    </section>
    <section aria-labelledby="roles-h">
      <h2 id="roles-h">Roles</h2>
      <${J} id="find-role" label="Find roles" value=${e} onInput=${t} list=${G} />
      <${U} owner="roles" />
      <${A} p=${o} label="Roles" id="roles-list" empty=${n?"No role starts with \u201C"+n+"\u201D.":"No roles yet."} render=${m=>p`
        <li key=${m.role} class="row">
          <a href=${R("role",m.role)}>${m.role}</a>
          <span class="desc">${m.description}</span>
          <button type="button" class="danger" onClick=${b=>{_.current=b.currentTarget,a(m.role)}}
            aria-label=${"Delete role "+m.role}>Delete</button>
        </li>`} />
    </section>
    ${u&&p`<${Qt} role=${u} onClose=${m=>{a(""),m&&(st("roles",u),re("roles",m),o.reload(),_.current=null)}} />`}`}var ge=100;function Qt({role:e,onClose:t}){let n=z(),[o,s]=h(null),r=D();N(()=>{let a=n.current;a.showModal();let _=()=>t("");return a.addEventListener("cancel",_),r.run(async()=>{let d="role/"+g(e),[c,m,b,f,$]=await Promise.all([k(d),k("members/"+g(e),{limit:ge}),k("role_permissions/"+g(e),{limit:ge}),k(d+"/inherits",{limit:ge}),k(d+"/inherited_by",{limit:ge})]);s({counts:c.counts,members:m.map(y=>y.user),perms:b.map(y=>y.name),parents:f.map(y=>y.role),children:$.map(y=>y.role)})}),()=>a.removeEventListener("cancel",_)},[e]);let l=()=>r.run(async()=>{let a=await x("DELETE","role/"+g(e)),_=o.counts;t(a.deleted?"Role "+e+" deleted, with "+V(_.members+_.scoped_members,"membership")+" and "+V(_.permissions,"permission")+".":"Role "+e+" was already gone.")}),i=(a,_)=>_===0?"none":a.join(", ")+(_>a.length?" and "+(_-a.length)+" more":""),u=o&&o.counts;return p`<dialog ref=${n} aria-labelledby="del-h" aria-describedby="del-what" id="delete-dialog">
    <h2 id="del-h">Delete role “${e}”?</h2>
    <${H} text=${r.error} />
    ${o?p`<div id="del-what">
      <p>This also removes, for good:</p>
      <ul class="cascade">
        <li><strong>${V(u.members,"global membership")}</strong>: ${i(o.members,u.members)}</li>
        <li><strong>${V(u.scoped_members,"membership")} in a scope</strong>${u.scoped_members?" (listed on the Members page)":""}</li>
        <li><strong>${V(u.permissions,"permission")}</strong>: ${i(o.perms,u.permissions)}</li>
        <li><strong>${V(u.parents,"parent link")}</strong> (it inherits from): ${i(o.parents,u.parents)}</li>
        <li><strong>${V(u.children,"child link")}</strong> (roles inheriting from it lose what it grants): ${i(o.children,u.children)}</li>
      </ul>
      <p>Re-creating the role brings none of this back.</p></div>`:p`<p id="del-what" aria-busy="true">Looking up what goes with it…</p>`}
    <div class="actions">
      <button type="button" class="danger" id="confirm-delete" onClick=${l} disabled=${!o||r.busy}>Delete ${e}</button>
      <button type="button" onClick=${()=>t("")}>Cancel</button>
    </div>
  </dialog>`}function V(e,t){return e+" "+t+(e===1?"":"s")}function Tt({role:e}){let[t,n]=h(0),[o,s]=h({detail:null,error:""});N(()=>{let a=!0;return k("role/"+g(e)).then(_=>a&&s({detail:_,error:""}),_=>a&&s({detail:null,error:_.status===404?"Role \u201C"+e+"\u201D not found: there is no role of that name (create it on the Roles page).":_.message})),()=>{a=!1}},[e,t]);let r=()=>n(a=>a+1),l=o.detail!==null,i=o.detail?o.detail.counts:null,u={role:e,tick:t,changed:r,ok:l};return p`
    <p><a href="#/roles">← All roles</a></p>
    <p id="role-desc" class="about">${o.detail?o.detail.description||"No description.":""}</p>
    <${H} text=${o.error} id="role-error" />
    <fieldset class="plain" disabled=${!l}>
      <legend class="visually-hidden">Role ${e}</legend>
      ${l&&p`<${Zt} role=${e} current=${o.detail.description||""}
        done=${a=>s({detail:{...o.detail,description:a},error:""})} />`}
      <div class="cols">
        <${en} ...${u} total=${i?i.permissions:0} />
        <${tn} ...${u} total=${i?i.parents:0} />
      </div>
      ${l&&p`<${nn} ...${u} count=${i.children} />
        <${on} ...${u} inherits=${i.parents>0} />`}
      <${sn} ...${u} total=${i?i.members:0} />
    </fieldset>`}function Zt({role:e,current:t,done:n}){let[o,s]=h(!1),[r,l]=h(t),i=D("describe");return p`<div class="describe">
    ${o?p`<form class="inline" onSubmit=${a=>{a.preventDefault(),i.run(async()=>{let _=await x("PUT","role/"+g(e),{body:{description:r}});return n(_.description),s(!1),_.description?"Description of "+e+" saved.":"Description of "+e+" cleared."})}}>
        <${E} id="role-desc-edit" label="Description" value=${r} onInput=${l} hint="Empty: no description." />
        <button type="submit" disabled=${i.busy}>Save description</button>
        <button type="button" onClick=${()=>{s(!1),l(t)}}>Cancel</button>
      </form>`:p`<button type="button" id="edit-desc" onClick=${()=>{l(t),s(!0)}}>Edit description</button>`}
    <${U} owner="describe" />
  </div>`}function He({id:e,label:t,button:n,add:o,extra:s,owner:r,list:l,kind:i}){let[u,a]=h(""),_=D(r);return p`<form class="inline" onSubmit=${c=>{c.preventDefault(),_.run(async()=>{let m=await o(u);return a(""),m})}}>
      <${E} id=${e} label=${t} value=${u} onInput=${a} required list=${l}
        note=${i?se(i,u):""} />
      ${s}
      <button type="submit" disabled=${_.busy}>${n}</button>
    </form>`}function We({label:e,remove:t,owner:n}){let o=D(n);return p`<button type="button" class="danger" aria-label=${e} disabled=${o.busy}
    onClick=${()=>o.run(t)}>Remove</button>`}function en({role:e,tick:t,changed:n,ok:o,total:s}){let r=T(i=>k("role_permissions/"+g(e),{limit:C,after:i}),i=>i.name,[e,t],o),l=i=>"permission/"+g(e)+"/"+g(i);return p`<section aria-labelledby="grants-h">
    <h2 id="grants-h">Permissions granted to ${e}</h2>
    <${He} id="grant-name" label="Permission" button="Grant" owner="grants" list=${B} kind="perms" add=${async i=>(await x("POST",l(i)),n(),"Granted "+i+" to "+e+".")} />
    <${U} owner="grants" />
    ${o&&p`<${A} p=${r} total=${s} label="Granted permissions" id="grants-list" empty="No permissions granted directly." render=${i=>p`
      <li key=${i.name} class="row"><a href=${R("whocan",i.name)}>${i.name}</a>
        <${We} owner="grants" label=${"Remove permission "+i.name} remove=${async()=>(await x("DELETE",l(i.name)),n(),"Removed "+i.name+" from "+e+".")} /></li>`} />`}
  </section>`}function tn({role:e,tick:t,changed:n,ok:o,total:s}){let r=T(i=>k("role/"+g(e)+"/inherits",{limit:C,after:i}),i=>i.role,[e,t],o),l=i=>"role/"+g(e)+"/inherits/"+g(i);return p`<section aria-labelledby="parents-h">
    <h2 id="parents-h">${e} inherits from</h2>
    <${He} id="parent-name" label="Parent role" button="Inherit" owner="parents" list=${G} kind="roles" add=${async i=>(await x("POST",l(i)),n(),e+" now inherits from "+i+".")} />
    <${U} owner="parents" />
    ${o&&p`<${A} p=${r} total=${s} label="Parent roles" id="parents-list" empty="Inherits from no role." render=${i=>p`
      <li key=${i.role} class="row"><a href=${R("role",i.role)}>${i.role}</a>
        <${We} owner="parents" label=${"Stop inheriting from "+i.role} remove=${async()=>(await x("DELETE",l(i.role)),n(),e+" no longer inherits from "+i.role+".")} /></li>`} />`}
  </section>`}function At({id:e,title:t,children:n,onToggle:o}){return p`<section aria-labelledby=${e+"-h"}>
    <details id=${e} onToggle=${s=>o(s.currentTarget.open)}>
      <summary><h2 id=${e+"-h"}>${t}</h2></summary>
      ${n}
    </details>
  </section>`}function nn({role:e,tick:t,ok:n,count:o}){let[s,r]=h(!1),l=T(i=>k("role/"+g(e)+"/inherited_by",{limit:C,after:i}),i=>i.role,[e,t],n&&s&&o>0);return p`<${At} id="children" title=${"Roles inheriting from "+e+" ("+o+")"} onToggle=${r}>
    ${o===0?p`<p class="empty" id="children-list">None.</p>`:p`<${A} p=${l} label="Roles inheriting from it" id="children-list" empty="None." render=${i=>p`
      <li key=${i.role} class="row"><a href=${R("role",i.role)}>${i.role}</a></li>`} />`}
  <//>`}function on({role:e,tick:t,ok:n,inherits:o}){let[s,r]=h(!1),l=T(i=>k("role_permissions/"+g(e),{limit:C,after:i,effective:"true"}),i=>i.name,[e,t],n&&s);return p`<${At} id="effective" title=${"Effective permissions of "+e} onToggle=${r}>
    <${A} p=${l} label="Effective permissions" id="effective-list" empty="None, granted or inherited." render=${i=>p`
      <li key=${i.name} class="row wrap"><span class="name">${i.name}</span>
        ${o?p`<${rn} role=${e} name=${i.name} />`:p`<span class="src">granted directly</span>`}</li>`} />
  <//>`}function rn({role:e,name:t}){let[n,o]=h(""),s=async()=>{try{let r=await k("permission/"+g(e)+"/"+g(t),{explain:"true"}),l=r.chain||[];o(r.result?l.length<=1?"granted directly":"inherited from "+l[l.length-1]+" ("+l.join(" \u2192 ")+")":"no longer held")}catch(r){o(r.message)}};return n?p`<span class="src" role="status">${n}</span>`:p`<button type="button" aria-label=${"Where does "+t+" come from?"} onClick=${s}>Where from?</button>`}function sn({role:e,tick:t,changed:n,ok:o,total:s}){let[r,l]=h(""),[i,u]=h(""),[a,_]=h(""),d=X(a),c=T(f=>k("members/"+g(e),{limit:C,after:f,scope:i,prefix:d}),f=>f.user,[e,t,i,d],o),m=f=>"membership/"+g(f)+"/"+g(e),b=f=>f?" of "+e+" in scope "+f:" global member of "+e;return p`<section aria-labelledby="members-h">
    <h2 id="members-h">Members of ${e}</h2>
    <${He} id="member-user" label="User" button="Add member" owner="members" list=${O} add=${async f=>(await x("POST",m(f),{query:{scope:r}}),n(),f+" is now a"+(r?" member":"")+b(r)+".")} extra=${p`<${E} id="member-scope" label="Scope" value=${r} onInput=${l}
      hint="Empty: a global membership, which holds in every scope." />`} />
    <${U} owner="members" />
    <div class="inline">
      <p class="hint" id="members-shown">Showing ${i?"members in scope \u201C"+i+"\u201D (global ones included)":"global members"}.</p>
      <button type="button" id="show-scope" onClick=${()=>u(r.trim())}>${r.trim()?"Show members in scope \u201C"+r.trim()+"\u201D":"Show global members"}</button>
    </div>
    <${J} id="find-member" label="Find members" value=${a} onInput=${_} list=${O} />
    ${o&&p`<${A} p=${c} label="Members" id="members-list" total=${i||d?0:s}
      empty=${d?"No member starts with \u201C"+d+"\u201D.":"No members."} render=${f=>p`
      <li key=${f.user+"/"+(f.scope||"")} class="row"><a href=${R("user",f.user)}>${f.user}</a>
        <span class=${f.scope?"scope":"scope global"}>${f.scope?"in scope "+f.scope:"global"}</span>
        <${We} owner="members" label=${"Remove "+f.user+(f.scope?" from scope "+f.scope:" (global member)")}
          remove=${async()=>{let $=await x("DELETE",m(f.user),{query:{scope:f.scope||void 0}});return n(),$.deleted?f.user+" is no longer a"+(f.scope?" member":"")+b(f.scope)+".":f.user+" was already not a"+(f.scope?" member":"")+b(f.scope)+"."}} /></li>`} />`}
  </section>`}function Oe({go:e,initial:t}){let[n,o]=h(t||"");return p`<form class="inline" onSubmit=${s=>{s.preventDefault(),n&&e(R("user",n))}}>
    <${E} id="lookup-user" label="User" value=${n} onInput=${o} required list=${O} />
    <button type="submit">Show user</button>
  </form>`}function Ut({go:e}){let[t,n]=h(""),o=X(t),s=T(r=>k("users",{limit:C,after:r,prefix:o}),r=>r.user,[o]);return p`
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">Look up a user</h2>
      <${Oe} go=${e} />
    </section>
    <section aria-labelledby="users-h">
      <h2 id="users-h">Users holding a membership</h2>
      <${J} id="find-user" label="Find users" value=${t} onInput=${n} list=${O} />
      <${A} p=${s} label="Users" id="users-list" empty=${o?"No user starts with \u201C"+o+"\u201D.":"No user holds a membership."}
        render=${r=>p`<li key=${r.user} class="row"><a href=${R("user",r.user)}>${r.user}</a></li>`} />
    </section>`}async function Nt(e,t,n){let o=await k("has_permission/"+g(e)+"/"+g(t),{scope:n,explain:"true"});return o.result?e+" can "+t+": yes, "+Rt(o.grant)+".":e+" cannot "+t+(n?" in scope "+n:"")+"."}function Dt({user:e,go:t}){let[n,o]=h(""),[s,r]=h(""),l=T($=>k("user_roles/"+g(e),{limit:C,after:$,scope:s}),$=>$.role,[e,s]),i=T($=>k("user_permissions/"+g(e),{limit:C,after:$,scope:s}),$=>$.name,[e,s]),[u,a]=h(""),[_,d]=h(""),[c,m]=h({}),b=D("check");return p`
    <${Oe} go=${t} initial=${e} />
    <form class="inline" onSubmit=${$=>{$.preventDefault(),r(n)}}>
      <${E} id="user-scope" label="Scope" value=${n} onInput=${o} hint="Empty: global memberships only." />
      <button type="submit">Apply scope</button>
    </form>
    <section aria-labelledby="check-h">
      <h2 id="check-h">Can ${e} …?</h2>
      <form class="inline" onSubmit=${$=>{$.preventDefault(),d(""),b.run(async()=>{d(await Nt(e,u,s))})}}>
        <${E} id="check-perm" label="Permission" value=${u} onInput=${a} required list=${B}
          note=${se("perms",u)} />
        <button type="submit" disabled=${b.busy}>Check</button>
      </form>
      <${U} owner="check" />
      <p id="check-result" role="status" class=${_.includes(": yes")?"yes":"no"}>${_}</p>
    </section>
    <div class="cols">
      <section aria-labelledby="uroles-h">
        <h2 id="uroles-h">Roles${s?" in scope "+s:""}</h2>
        <${A} p=${l} label="Roles of the user" id="user-roles" empty="Member of no role." render=${$=>p`
          <li key=${$.role+"/"+($.scope||"")} class="row"><a href=${R("role",$.role)}>${$.role}</a>
            ${s&&p`<span class=${$.scope?"scope":"scope global"}>${$.scope?"in scope "+$.scope:"global"}</span>`}</li>`} />
      </section>
      <section aria-labelledby="uperms-h">
        <h2 id="uperms-h">Effective permissions</h2>
        <${A} p=${i} label="Effective permissions of the user" id="user-perms" empty="No permissions." render=${$=>p`
          <li key=${$.name} class="row wrap"><span class="name">${$.name}</span>
            <button type="button" aria-label=${"Why can "+e+" "+$.name+"?"}
              onClick=${async()=>{let y;try{y=await Nt(e,$.name,s)}catch(v){y=v.message}m({...c,[$.name]:y})}}>Why?</button>
            ${c[$.name]&&p`<span class="why" role="status">${c[$.name]}</span>`}</li>`} />
      </section>
    </div>`}function It({go:e}){let t=T(d=>k("scoped_memberships",{limit:C,after:d}),d=>d.scope+"/"+d.user+"/"+d.role,[]),[n,o]=h(""),[s,r]=h(""),[l,i]=h(""),u=D("add-membership"),a=D("scoped");return p`
    <section aria-labelledby="addm-h">
      <h2 id="addm-h">Add a membership</h2>
      <form class="inline" onSubmit=${d=>{d.preventDefault(),u.run(async()=>{await x("POST","membership/"+g(n)+"/"+g(s),{query:{scope:l}});let c=n+" is now a member of "+s+(l?" in scope "+l:" globally")+".";return o(""),t.reload(),c})}}>
        <${E} id="m-user" label="User" value=${n} onInput=${o} required list=${O} />
        <${E} id="m-role" label="Role" value=${s} onInput=${r} required list=${G} note=${se("roles",s)} />
        <${E} id="m-scope" label="Scope" value=${l} onInput=${i} hint="Empty: global, in every scope." />
        <button type="submit" disabled=${u.busy}>Add membership</button>
      </form>
      <${U} owner="add-membership" />
    </section>
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">A user's roles and permissions</h2>
      <${Oe} go=${e} />
      <p class="hint">Global members are listed on each role's page.</p>
    </section>
    <section aria-labelledby="scoped-h">
      <h2 id="scoped-h">Memberships in one scope</h2>
      <${U} owner="scoped" />
      <${A} p=${t} label="Scoped memberships" id="scoped-list" empty="No scoped memberships." render=${d=>p`
        <li key=${d.scope+"/"+d.user+"/"+d.role} class="row">
          <span class="scope">${d.scope}</span>
          <span class="grow"><a href=${R("user",d.user)}>${d.user}</a> is a member of <a href=${R("role",d.role)}>${d.role}</a></span>
          <button type="button" class="danger" aria-label=${"Remove "+d.user+" from "+d.role+" in scope "+d.scope}
            onClick=${()=>a.run(async()=>(await x("DELETE","membership/"+g(d.user)+"/"+g(d.role),{query:{scope:d.scope}}),t.reload(),d.user+" is no longer a member of "+d.role+" in scope "+d.scope+"."))}>Remove</button></li>`} />
    </section>`}function Mt({name:e,scope:t,go:n}){let[o,s]=h(e||""),[r,l]=h(t||""),i=T(a=>e?k("which_users_can/"+g(e),{limit:C,after:a,scope:t}):Promise.resolve([]),a=>a.user,[e,t]),u=T(a=>e?k("which_roles_can/"+g(e),{limit:C,after:a}):Promise.resolve([]),a=>a.role,[e]);return p`
    <form class="inline" onSubmit=${a=>{a.preventDefault(),o&&n(r.trim()?R("whocan",o,r.trim()):R("whocan",o))}}>
      <${E} id="whocan-perm" label="Permission" value=${o} onInput=${s} required list=${B} />
      <${E} id="whocan-scope" label="Scope" value=${r} onInput=${l} hint="Empty: global memberships only." />
      <button type="submit">Who can?</button>
    </form>
    ${e&&p`<div class="cols">
      <section aria-labelledby="wu-h">
        <h2 id="wu-h">Users who can ${e}${t?" in scope "+t:""}</h2>
        <${A} p=${i} label="Users" id="whocan-users" empty="Nobody." render=${a=>p`
          <li key=${a.user} class="row"><a href=${R("user",a.user)}>${a.user}</a></li>`} />
      </section>
      <section aria-labelledby="wr-h">
        <h2 id="wr-h">Roles that hold ${e}</h2>
        <${A} p=${u} label="Roles" id="whocan-roles" empty="No role." render=${a=>p`
          <li key=${a.role} class="row"><a href=${R("role",a.role)}>${a.role}</a></li>`} />
      </section>
    </div>`}`}var an=["add_role","set_description","del_role","add_permission","del_permission","add_membership","del_membership","add_inheritance","del_inheritance","batch"];function Lt(){let[e,t]=h(""),[n,o]=h(""),s=T(r=>k("audit",{limit:C,before:r,action:n}),r=>r.id,[n]);return p`
    <form class="inline" onSubmit=${r=>{r.preventDefault(),o(e.trim())}}>
      <${E} id="audit-action" label="Action" value=${e} onInput=${t} list="audit-actions"
        hint="Empty: every action." />
      <datalist id="audit-actions">${an.map(r=>p`<option value=${r} />`)}</datalist>
      <button type="submit">Filter</button>
    </form>
    <${H} text=${s.error} />
    <div class="table-wrap">
      <table id="audit-table" aria-busy=${s.loading}>
        <caption>Audit records, newest first${n?", action "+n:""}</caption>
        <thead><tr><th scope="col">When (UTC)</th><th scope="col">Action</th><th scope="col">Resource</th>
          <th scope="col">Outcome</th><th scope="col">Request</th></tr></thead>
        <tbody>${s.items.map(r=>p`<tr key=${r.id}>
          <td data-label="When"><time datetime=${r.at}>${r.at.replace("T"," ").replace(/\.\d+Z$/,"")}</time></td>
          <td data-label="Action">${r.action}</td><td data-label="Resource">${r.resource}</td>
          <td data-label="Outcome">${r.outcome}</td><td data-label="Request" class="mono">${r.request_id}</td></tr>`)}</tbody>
      </table>
    </div>
    ${!s.loading&&!s.error&&s.items.length===0&&p`<p class="empty">No records.</p>`}
    <nav class="pager" aria-label="Audit pages">
      <button type="button" onClick=${s.prev} disabled=${!s.hasPrev}>Newer</button>
      <span>Page ${s.page}</span>
      <button type="button" onClick=${s.next} disabled=${!s.hasNext}>Older</button>
    </nav>`}function Ft(){let e=location.hash.replace(/^#\/?/,"").split("/").map(t=>{try{return decodeURIComponent(t)}catch{return""}});return{page:e[0]||"roles",arg:e[1]||"",arg2:e[2]||""}}var ln=[["roles","Roles"],["members","Members"],["user","Users"],["whocan","Who can"],["audit","Audit log"]];function cn({onIn:e,reason:t}){let[n,o]=h(""),[s,r]=h(t),[l,i]=h(!1);return p`<main class="signin" id="main">
    <h1>rolegate console</h1>
    <form onSubmit=${async a=>{a.preventDefault(),i(!0),r("");try{await x("GET","roles",{query:{limit:1},key:n.trim()}),at(n.trim()),e()}catch(_){r(_.message)}finally{i(!1)}}}>
      <${E} id="client-key" type="password" label="Client key" value=${n} onInput=${o} required
        hint="An admin key (AUTH_CLIENT_KEY or AUTH_CLIENT_KEYS). It stays in this tab only and is forgotten when the tab closes." />
      <button type="submit" disabled=${l}>Sign in</button>
    </form>
    <${H} text=${s} id="signin-error" />
  </main>`}function un(){let[e,t]=h(!!Ne()),[n,o]=h(""),[s,r]=h(Ft()),l=z();if(N(()=>{let _=()=>{r(Ft()),Ct()};return addEventListener("hashchange",_),ct(d=>{Ue(),o(d),t(!1)}),()=>removeEventListener("hashchange",_)},[]),N(()=>{l.current&&l.current.focus()},[s.page,s.arg,e]),!e)return p`<${cn} reason=${n} onIn=${()=>{o(""),t(!0)}} />`;let i=_=>{location.hash=_},u,a;switch(s.page){case"role":u="Role "+s.arg,a=p`<${Tt} role=${s.arg} />`;break;case"members":u="Members",a=p`<${It} go=${i} />`;break;case"user":u=s.arg?"User "+s.arg:"Users",a=s.arg?p`<${Dt} user=${s.arg} go=${i} />`:p`<${Ut} go=${i} />`;break;case"whocan":u=s.arg?"Who can "+s.arg:"Who can",a=p`<${Mt} name=${s.arg} scope=${s.arg2} go=${i} />`;break;case"audit":u="Audit log",a=p`<${Lt} />`;break;default:u="Roles",a=p`<${xt} />`}return document.title=u+" \xB7 rolegate console",p`
    <a class="skip" href="#main" onClick=${_=>{_.preventDefault(),l.current&&l.current.focus()}}>Skip to content</a>
    <header>
      <span class="brand">rolegate</span>
      <nav aria-label="Console">
        <ul>${ln.map(([_,d])=>p`<li><a href=${"#/"+_} aria-current=${s.page===_?"page":void 0}>${d}</a></li>`)}</ul>
      </nav>
      <button type="button" class="signout" onClick=${()=>{Ue(),t(!1)}}>Sign out</button>
    </header>
    <main id="main">
      <h1 tabindex="-1" ref=${l}>${u}</h1>
      <div key=${s.page+"/"+s.arg+"/"+s.arg2} class="page">${a}</div>
    </main>
    <${Pt} />`}Re(p`<${un} />`,document.getElementById("app"));
