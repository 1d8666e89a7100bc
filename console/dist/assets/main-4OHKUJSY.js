var oe,v,Ne,$t,M,Te,De,Ie,pe,Z,K,He,he,de,me,yt,te={},ne=[],gt=/acit|ex(?:s|g|n|p|$)|rph|grid|ows|mnc|ntw|ine[ch]|zoo|^ord|itera/i,se=Array.isArray;function H(e,t){for(var n in t)e[n]=t[n];return e}function fe(e){e&&e.parentNode&&e.parentNode.removeChild(e)}function ie(e,t,n){var o,s,r,l={};for(r in t)r=="key"?o=t[r]:r=="ref"?s=t[r]:l[r]=t[r];if(arguments.length>2&&(l.children=arguments.length>3?oe.call(arguments,2):n),typeof e=="function"&&e.defaultProps!=null)for(r in e.defaultProps)l[r]===void 0&&(l[r]=e.defaultProps[r]);return ee(e,l,o,s,null)}function ee(e,t,n,o,s){var r={type:e,props:t,key:n,ref:o,__k:null,__:null,__b:0,__e:null,__c:null,constructor:void 0,__v:s??++Ne,__i:-1,__u:0};return s==null&&v.vnode!=null&&v.vnode(r),r}function ae(e){return e.children}function V(e,t){this.props=e,this.context=t}function F(e,t){if(t==null)return e.__?F(e.__,e.__i+1):null;for(var n;t<e.__k.length;t++)if((n=e.__k[t])!=null&&n.__e!=null)return n.__e;return typeof e.type=="function"?F(e):null}function vt(e){if(e.__P&&e.__d){var t=e.__v,n=t.__e,o=[],s=[],r=H({},t);r.__v=t.__v+1,v.vnode&&v.vnode(r),be(e.__P,r,t,e.__n,e.__P.namespaceURI,32&t.__u?[n]:null,o,n??F(t),!!(32&t.__u),s),r.__v=t.__v,r.__.__k[r.__i]=r,qe(o,r,s),t.__e=t.__=null,r.__e!=n&&Le(r)}}function Le(e){if((e=e.__)!=null&&e.__c!=null)return e.__e=e.__c.base=null,e.__k.some(function(t){if(t!=null&&t.__e!=null)return e.__e=e.__c.base=t.__e}),Le(e)}function Re(e){(!e.__d&&(e.__d=!0)&&M.push(e)&&!re.__r++||Te!=v.debounceRendering)&&((Te=v.debounceRendering)||De)(re)}function re(){try{for(var e,t=1;M.length;)M.length>t&&M.sort(Ie),e=M.shift(),t=M.length,vt(e)}finally{M.length=re.__r=0}}function Me(e,t,n,o,s,r,l,c,u,i,_){var p,a,d,b,R,h,y=o&&o.__k||ne,g=t.length;for(u=wt(n,t,y,u,g),p=0;p<g;p++)(d=n.__k[p])!=null&&(a=d.__i!=-1&&y[d.__i]||te,d.__i=p,h=be(e,d,a,s,r,l,c,u,i,_),b=d.__e,d.ref&&a.ref!=d.ref&&(a.ref&&$e(a.ref,null,d),_.push(d.ref,d.__c||b,d)),R==null&&b!=null&&(R=b),4&d.__u?(u=We(d,u,e),a.__e&&(a.__e=null)):typeof d.type=="function"&&h!==void 0?u=h:b&&(u=b.nextSibling),d.__u&=-7);return n.__e=R,u}function wt(e,t,n,o,s){var r,l,c,u,i,_=n.length,p=_,a=0;for(e.__k=new Array(s),r=0;r<s;r++)(l=t[r])!=null&&typeof l!="boolean"&&typeof l!="function"?(typeof l=="string"||typeof l=="number"||typeof l=="bigint"||l.constructor==String?l=e.__k[r]=ee(null,l,null,null,null):se(l)?l=e.__k[r]=ee(ae,{children:l},null,null,null):l.constructor===void 0&&l.__b>0?l=e.__k[r]=ee(l.type,l.props,l.key,l.ref?l.ref:null,l.__v):e.__k[r]=l,u=r+a,l.__=e,l.__b=e.__b+1,c=null,(i=l.__i=kt(l,n,u,p))!=-1&&(p--,(c=n[i])&&(c.__u|=2)),c==null||c.__v==null?(i==-1&&(s>_?a--:s<_&&a++),typeof l.type!="function"&&(l.__u|=4)):i!=u&&(i==u-1?a--:i==u+1?a++:(i>u?a--:a++,l.__u|=4))):e.__k[r]=null;if(p)for(r=0;r<_;r++)(c=n[r])!=null&&(2&c.__u)==0&&(c.__e==o&&(o=F(c)),je(c,c));return o}function We(e,t,n){var o,s;if(typeof e.type=="function"){for(o=e.__k,s=0;o&&s<o.length;s++)o[s]&&(o[s].__=e,t=We(o[s],t,n));return t}e.__e!=t&&(t&&e.type&&!t.parentNode&&(t=F(e)),t=n.insertBefore(e.__e,t||null));do t=t&&t.nextSibling;while(t!=null&&t.nodeType==8);return t}function kt(e,t,n,o){var s,r,l,c=e.key,u=e.type,i=t[n],_=i!=null&&(2&i.__u)==0;if(i===null&&c==null||_&&c==i.key&&u==i.type)return n;if(o>(_?1:0)){for(s=n-1,r=n+1;s>=0||r<t.length;)if((i=t[l=s>=0?s--:r++])!=null&&(2&i.__u)==0&&c==i.key&&u==i.type)return l}return-1}function Ae(e,t,n){t[0]=="-"?e.setProperty(t,n??""):e[t]=n==null?"":typeof n!="number"||gt.test(t)?n:n+"px"}function X(e,t,n,o,s){var r,l;e:if(t=="style")if(typeof n=="string")e.style.cssText=n;else{if(typeof o=="string"&&(e.style.cssText=o=""),o)for(t in o)n&&t in n||Ae(e.style,t,"");if(n)for(t in n)o&&n[t]==o[t]||Ae(e.style,t,n[t])}else if(t[0]=="o"&&t[1]=="n")r=t!=(t=t.replace(He,"$1")),l=t.toLowerCase(),t=l in e||t=="onFocusOut"||t=="onFocusIn"?l.slice(2):t.slice(2),e.l||(e.l={}),e.l[t+r]=n,n?o?n[K]=o[K]:(n[K]=he,e.addEventListener(t,r?me:de,r)):e.removeEventListener(t,r?me:de,r);else{if(s=="http://www.w3.org/2000/svg")t=t.replace(/xlink(H|:h)/,"h").replace(/sName$/,"s");else if(t!="width"&&t!="height"&&t!="href"&&t!="list"&&t!="form"&&t!="tabIndex"&&t!="download"&&t!="rowSpan"&&t!="colSpan"&&t!="role"&&t!="popover"&&t in e)try{e[t]=n??"";break e}catch{}typeof n=="function"||(n==null||n===!1&&t[4]!="-"?e.removeAttribute(t):e.setAttribute(t,t=="popover"&&n==1?"":n))}}function Ue(e){return function(t){if(this.l){var n=this.l[t.type+e];if(t[Z]==null)t[Z]=he++;else if(t[Z]<n[K])return;return n(v.event?v.event(t):t)}}}function be(e,t,n,o,s,r,l,c,u,i){var _,p,a,d,b,R,h,y,g,N,G,W,B,xe,Q,_e,D=t.type;if(t.constructor!==void 0)return null;128&n.__u&&(u=!!(32&n.__u),r=[c=t.__e=n.__e]),(_=v.__b)&&_(t);e:if(typeof D=="function"){p=l.length;try{if(g=t.props,N=D.prototype&&D.prototype.render,G=(_=D.contextType)&&o[_.__c],W=_?G?G.props.value:_.__:o,n.__c?y=(a=t.__c=n.__c).__=a.__E:(N?t.__c=a=new D(g,W):(t.__c=a=new V(g,W),a.constructor=D,a.render=Pt),G&&G.sub(a),a.state||(a.state={}),a.__n=o,d=a.__d=!0,a.__h=[],a._sb=[]),N&&a.__s==null&&(a.__s=a.state),N&&D.getDerivedStateFromProps!=null&&(a.__s==a.state&&(a.__s=H({},a.__s)),H(a.__s,D.getDerivedStateFromProps(g,a.__s))),b=a.props,R=a.state,a.__v=t,d)N&&D.getDerivedStateFromProps==null&&a.componentWillMount!=null&&a.componentWillMount(),N&&a.componentDidMount!=null&&a.__h.push(a.componentDidMount);else{if(N&&D.getDerivedStateFromProps==null&&g!==b&&a.componentWillReceiveProps!=null&&a.componentWillReceiveProps(g,W),t.__v==n.__v||!a.__e&&a.shouldComponentUpdate!=null&&a.shouldComponentUpdate(g,a.__s,W)===!1){t.__v!=n.__v&&(a.props=g,a.state=a.__s,a.__d=!1),t.__e=n.__e,t.__k=n.__k,t.__k.some(function(O){O&&(O.__=t)}),ne.push.apply(a.__h,a._sb),a._sb=[],a.__h.length&&l.push(a),c=F(n);break e}a.componentWillUpdate!=null&&a.componentWillUpdate(g,a.__s,W),N&&a.componentDidUpdate!=null&&a.__h.push(function(){a.componentDidUpdate(b,R,h)})}if(a.context=W,a.props=g,a.__P=e,a.__e=!1,B=v.__r,xe=0,N)a.state=a.__s,a.__d=!1,B&&B(t),_=a.render(a.props,a.state,a.context),ne.push.apply(a.__h,a._sb),a._sb=[];else do a.__d=!1,B&&B(t),_=a.render(a.props,a.state,a.context),a.state=a.__s;while(a.__d&&++xe<25);a.state=a.__s,a.getChildContext!=null&&(o=H(H({},o),a.getChildContext())),N&&!d&&a.getSnapshotBeforeUpdate!=null&&(h=a.getSnapshotBeforeUpdate(b,R)),Q=_!=null&&_.type===ae&&_.key==null?Oe(_.props.children):_,c=Me(e,se(Q)?Q:[Q],t,n,o,s,r,l,c,u,i),a.base=t.__e,t.__u&=-161,a.__h.length&&l.push(a),y&&(a.__E=a.__=null)}catch(O){if(l.length=p,t.__v=null,u||r!=null){if(O.then){for(t.__u|=u?160:128;c&&c.nodeType==8&&c.nextSibling;)c=c.nextSibling;r!=null&&(r[r.indexOf(c)]=null),t.__e=c}else if(r!=null)for(_e=r.length;_e--;)fe(r[_e])}else t.__e=n.__e;t.__k==null&&(t.__k=n.__k||[]),O.then||Fe(t),v.__e(O,t,n)}}else r==null&&t.__v==n.__v?(t.__k=n.__k,t.__e=n.__e):c=t.__e=St(n.__e,t,n,o,s,r,l,u,i);return(_=v.diffed)&&_(t),128&t.__u?void 0:c}function Fe(e){e&&(e.__c&&(e.__c.__e=!0),e.__k&&e.__k.some(Fe))}function qe(e,t,n){for(var o=0;o<n.length;o++)$e(n[o],n[++o],n[++o]);v.__c&&v.__c(t,e),e.some(function(s){try{e=s.__h,s.__h=[],e.some(function(r){r.call(s)})}catch(r){v.__e(r,s.__v)}})}function Oe(e){return typeof e!="object"||e==null||e.__b>0?e:se(e)?e.map(Oe):e.constructor!==void 0?null:H({},e)}function St(e,t,n,o,s,r,l,c,u){var i,_,p,a,d,b,R,h=n.props||te,y=t.props,g=t.type;if(g=="svg"?s="http://www.w3.org/2000/svg":g=="math"?s="http://www.w3.org/1998/Math/MathML":s||(s="http://www.w3.org/1999/xhtml"),r!=null){for(i=0;i<r.length;i++)if((d=r[i])&&"setAttribute"in d==!!g&&(g?d.localName==g:d.nodeType==3)){e=d,r[i]=null;break}}if(e==null){if(g==null)return document.createTextNode(y);e=document.createElementNS(s,g,y.is&&y),c&&(v.__m&&v.__m(t,r),c=!1),r=null}if(g==null)h===y||c&&e.data==y||(e.data=y);else{if(r=g=="textarea"&&y.defaultValue!=null?null:r&&oe.call(e.childNodes),!c&&r!=null)for(h={},i=0;i<e.attributes.length;i++)h[(d=e.attributes[i]).name]=d.value;for(i in h)d=h[i],i=="dangerouslySetInnerHTML"?p=d:i=="children"||i in y||i=="value"&&"defaultValue"in y||i=="checked"&&"defaultChecked"in y||X(e,i,null,d,s);for(i in y)d=y[i],i=="children"?a=d:i=="dangerouslySetInnerHTML"?_=d:i=="value"?b=d:i=="checked"?R=d:c&&typeof d!="function"||h[i]===d||X(e,i,d,h[i],s);if(_)c||p&&(_.__html==p.__html||_.__html==e.innerHTML)||(e.innerHTML=_.__html),t.__k=[];else if(p&&(e.innerHTML=""),Me(t.type=="template"?e.content:e,se(a)?a:[a],t,n,o,g=="foreignObject"?"http://www.w3.org/1999/xhtml":s,r,l,r?r[0]:n.__k&&F(n,0),c,u),r!=null)for(i=r.length;i--;)fe(r[i]);c&&g!="textarea"||(i="value",g=="progress"&&b==null?e.removeAttribute("value"):b!=null&&(b!==e[i]||g=="progress"&&!b||g=="option"&&b!=h[i])&&X(e,i,b,h[i],s),i="checked",R!=null&&R!=e[i]&&X(e,i,R,h[i],s))}return e}function $e(e,t,n){try{if(typeof e=="function"){var o=typeof e.__u=="function";o&&e.__u(),o&&t==null||(e.__u=e(t))}else e.current=t}catch(s){v.__e(s,n)}}function je(e,t,n){var o,s;if(v.unmount&&v.unmount(e),(o=e.ref)&&(o.current&&o.current!=e.__e||$e(o,null,t)),(o=e.__c)!=null){if(o.componentWillUnmount)try{o.componentWillUnmount()}catch(r){v.__e(r,t)}o.base=o.__P=o.__n=null}if(o=e.__k)for(s=0;s<o.length;s++)o[s]&&je(o[s],t,n||typeof e.type!="function");n||fe(e.__e),e.__c=e.__=e.__e=void 0}function Pt(e,t,n){return this.constructor(e,n)}function ye(e,t,n){var o,s,r,l;t==document&&(t=document.documentElement),v.__&&v.__(e,t),s=(o=typeof n=="function")?null:n&&n.__k||t.__k,r=[],l=[],be(t,e=(!o&&n||t).__k=ie(ae,null,[e]),s||te,te,t.namespaceURI,!o&&n?[n]:s?null:t.firstChild?oe.call(t.childNodes):null,r,!o&&n?n:s?s.__e:t.firstChild,o,l),qe(r,e,l),e.props.children=null}oe=ne.slice,v={__e:function(e,t,n,o){for(var s,r,l;t=t.__;)if((s=t.__c)&&!s.__)try{if((r=s.constructor)&&r.getDerivedStateFromError!=null&&(s.setState(r.getDerivedStateFromError(e)),l=s.__d),s.componentDidCatch!=null&&(s.componentDidCatch(e,o||{}),l=s.__d),l)return s.__E=s}catch(c){e=c}throw e}},Ne=0,$t=function(e){return e!=null&&e.constructor===void 0},V.prototype.setState=function(e,t){var n;n=this.__s!=null&&this.__s!=this.state?this.__s:this.__s=H({},this.state),typeof e=="function"&&(e=e(H({},n),this.props)),e&&H(n,e),e!=null&&this.__v&&(t&&this._sb.push(t),Re(this))},V.prototype.forceUpdate=function(e){this.__v&&(this.__e=!0,e&&this.__h.push(e),Re(this))},V.prototype.render=ae,M=[],De=typeof Promise=="function"?Promise.prototype.then.bind(Promise.resolve()):setTimeout,Ie=function(e,t){return e.__v.__b-t.__v.__b},re.__r=0,pe=Math.random().toString(8),Z="__d"+pe,K="__a"+pe,He=/(PointerCapture)$|Capture$/i,he=0,de=Ue(!1),me=Ue(!0),yt=0;var ge="rolegate.console.key",Et=location.pathname.replace(/console\/[^/]*$/,""),ve=()=>sessionStorage.getItem(ge)||"",Ge=e=>sessionStorage.setItem(ge,e),we=()=>sessionStorage.removeItem(ge),z=class extends Error{constructor(t,n){super(n),this.status=t}},Be=()=>{},Ke=e=>{Be=e},$=encodeURIComponent;async function C(e,t,{query:n,body:o,key:s}={}){if(t.split("/").some(_=>_==="."||_===".."))throw new z(400,'The names "." and ".." cannot be sent in a URL path from a browser (it would reach another route); use rolegatectl or the REST API');let r=new URL(Et+"api/"+t,location.origin);for(let[_,p]of Object.entries(n||{}))p!=null&&p!==""&&r.searchParams.set(_,String(p));let l={Authorization:"Bearer "+(s??ve()),Accept:"application/json"},c={method:e,headers:l,credentials:"omit",cache:"no-store",referrerPolicy:"no-referrer"};o!==void 0&&(l["Content-Type"]="application/json",c.body=JSON.stringify(o));let u;try{u=await fetch(r,c)}catch(_){throw new z(0,"The server cannot be reached ("+_.message+")")}let i=null;try{i=await u.json()}catch{}if(!u.ok||!i||i.success!==!0){let _=i&&i.message?i.message:u.status+" "+u.statusText;throw i&&i.error&&i.error!==i.message&&(_+=": "+i.error),u.status===401&&s===void 0&&Be(_),new z(u.status,_)}return i.data}var w=(e,t)=>C("GET",e,{query:t});var ze=function(e,t,n,o){var s;t[0]=0;for(var r=1;r<t.length;r++){var l=t[r++],c=t[r]?(t[0]|=l?1:2,n[t[r++]]):t[++r];l===3?o[0]=c:l===4?o[1]=Object.assign(o[1]||{},c):l===5?(o[1]=o[1]||{})[t[++r]]=c:l===6?o[1][t[++r]]+=c+"":l?(s=e.apply(c,ze(e,c,n,["",null])),o.push(s),c[0]?t[0]|=2:(t[r-2]=0,t[r]=s)):o.push(c)}return o},Ve=new Map;function Je(e){var t=Ve.get(this);return t||(t=new Map,Ve.set(this,t)),(t=ze(this,t.get(e)||(t.set(e,t=(function(n){for(var o,s,r=1,l="",c="",u=[0],i=function(a){r===1&&(a||(l=l.replace(/^\s*\n\s*|\s*\n\s*$/g,"")))?u.push(0,a,l):r===3&&(a||l)?(u.push(3,a,l),r=2):r===2&&l==="..."&&a?u.push(4,a,0):r===2&&l&&!a?u.push(5,0,!0,l):r>=5&&((l||!a&&r===5)&&(u.push(r,0,l,s),r=6),a&&(u.push(r,a,0,s),r=6)),l=""},_=0;_<n.length;_++){_&&(r===1&&i(),i(_));for(var p=0;p<n[_].length;p++)o=n[_][p],r===1?o==="<"?(i(),u=[u],r=3):l+=o:r===4?l==="--"&&o===">"?(r=1,l=""):l=o+l[0]:c?o===c?c="":l+=o:o==='"'||o==="'"?c=o:o===">"?(i(),r=1):r&&(o==="="?(r=5,s=l,l=""):o==="/"&&(r<5||n[_][p+1]===">")?(i(),r===3&&(u=u[0]),r=u,(u=u[0]).push(2,0,r),r=0):o===" "||o==="	"||o===`
`||o==="\r"?(i(),r=2):l+=o),r===3&&l==="!--"&&(r=4,u=u[0])}return i(),u})(e)),t),arguments,[])).length>1?t:t[0]}var m=Je.bind(ie);var J,k,ke,Ye,Y=0,ot=[],S=v,Qe=S.__b,Xe=S.__r,Ze=S.diffed,et=S.__c,tt=S.unmount,nt=S.__;function Pe(e,t){S.__h&&S.__h(k,e,Y||t),Y=0;var n=k.__H||(k.__H={__:[],__h:[]});return e>=n.__.length&&n.__.push({}),n.__[e]}function f(e){return Y=1,Ct(lt,e)}function Ct(e,t,n){var o=Pe(J++,2);if(o.t=e,!o.__c&&(o.__=[n?n(t):lt(void 0,t),function(c){var u=o.__N?o.__N[0]:o.__[0],i=o.t(u,c);u!==i&&(o.__N=[i,o.__[1]],o.__c.setState({}))}],o.__c=k,!k.__f)){var s=function(c,u,i){if(!o.__c.__H)return!0;var _=!1,p=o.__c.props!==c;if(o.__c.__H.__.some(function(d){if(d.__N){_=!0;var b=d.__[0];d.__=d.__N,d.__N=void 0,b!==d.__[0]&&(p=!0)}}),r){var a=r.call(this,c,u,i);return _?a||p:a}return!_||p};k.__f=!0;var r=k.shouldComponentUpdate,l=k.componentWillUpdate;k.componentWillUpdate=function(c,u,i){if(this.__e){var _=r;r=void 0,s(c,u,i),r=_}l&&l.call(this,c,u,i)},k.shouldComponentUpdate=s}return o.__N||o.__}function I(e,t){var n=Pe(J++,3);!S.__s&&at(n.__H,t)&&(n.__=e,n.u=t,k.__H.__h.push(n))}function j(e){return Y=5,st(function(){return{current:e}},[])}function st(e,t){var n=Pe(J++,7);return at(n.__H,t)&&(n.__=e(),n.__H=t,n.__h=e),n.__}function it(e,t){return Y=8,st(function(){return e},t)}function xt(){for(var e;e=ot.shift();){var t=e.__H;if(e.__P&&t)try{t.__h.some(le),t.__h.some(Se),t.__h=[]}catch(n){t.__h=[],S.__e(n,e.__v)}}}S.__b=function(e){k=null,Qe&&Qe(e)},S.__=function(e,t){e&&t.__k&&t.__k.__m&&(e.__m=t.__k.__m),nt&&nt(e,t)},S.__r=function(e){Xe&&Xe(e),J=0;var t=(k=e.__c).__H;t&&(ke===k?(t.__h=[],k.__h=[],t.__.some(function(n){n.__N&&(n.__=n.__N),n.u=n.__N=void 0})):(t.__h.some(le),t.__h.some(Se),t.__h=[],J=0)),ke=k},S.diffed=function(e){Ze&&Ze(e);var t=e.__c;t&&t.__H&&(t.__H.__h.length&&(ot.push(t)!==1&&Ye===S.requestAnimationFrame||((Ye=S.requestAnimationFrame)||Tt)(xt)),t.__H.__.some(function(n){n.u&&(n.__H=n.u,n.u=void 0)})),ke=k=null},S.__c=function(e,t){t.some(function(n){try{n.__h.some(le),n.__h=n.__h.filter(function(o){return!o.__||Se(o)})}catch(o){t.some(function(s){s.__h&&(s.__h=[])}),t=[],S.__e(o,n.__v)}}),et&&et(e,t)},S.unmount=function(e){tt&&tt(e);var t,n=e.__c;n&&n.__H&&(n.__H.__.some(function(o){try{le(o)}catch(s){t=s}}),n.__H=void 0,t&&S.__e(t,n.__v))};var rt=typeof requestAnimationFrame=="function";function Tt(e){var t,n=function(){clearTimeout(o),rt&&cancelAnimationFrame(t),setTimeout(e)},o=setTimeout(n,35);rt&&(t=requestAnimationFrame(n))}function le(e){var t=k,n=e.__c;typeof n=="function"&&(e.__c=void 0,n()),k=t}function Se(e){var t=k;e.__c=e.__(),k=t}function at(e,t){return!e||e.length!==t.length||t.some(function(n,o){return n!==e[o]})}function lt(e,t){return typeof t=="function"?t(e):t}var E=50;function x(e,t,n){let o=JSON.stringify(n),[s,r]=f({key:o,cursors:[void 0]}),l=s.key===o?s.cursors:[void 0],[c,u]=f({items:[],loading:!0,error:""}),[i,_]=f(0),p=l[l.length-1];I(()=>{let d=!0;return u(b=>({...b,loading:!0})),e(p).then(b=>d&&u({items:b||[],loading:!1,error:""}),b=>d&&u({items:[],loading:!1,error:b.message})),()=>{d=!1}},[o,p,i]);let a=c.items;return{...c,page:l.length,hasNext:a.length>=E,hasPrev:l.length>1,next:()=>a.length&&r({key:o,cursors:[...l,t(a[a.length-1])]}),prev:()=>r({key:o,cursors:l.slice(0,-1)}),reload:()=>_(d=>d+1)}}function Rt({p:e,label:t}){return!e.hasPrev&&!e.hasNext?null:m`<nav class="pager" aria-label=${t+" pages"}>
    <button type="button" onClick=${e.prev} disabled=${!e.hasPrev}>Previous page</button>
    <span>Page ${e.page}</span>
    <button type="button" onClick=${e.next} disabled=${!e.hasNext}>Next page</button>
  </nav>`}function U({text:e,id:t}){return e?m`<p class="error" role="alert" id=${t}>${e}</p>`:null}function P({id:e,label:t,value:n,onInput:o,required:s,placeholder:r,type:l,hint:c,list:u}){return m`<div class="field">
    <label for=${e}>${t}${s?"":m` <span class="opt">(optional)</span>`}</label>
    <input id=${e} name=${e} type=${l||"text"} value=${n} required=${s} placeholder=${r}
      list=${u} autocomplete="off" spellcheck=${!1} aria-describedby=${c?e+"-hint":void 0}
      onInput=${i=>o(i.currentTarget.value)} />
    ${c&&m`<small id=${e+"-hint"}>${c}</small>`}
  </div>`}function L(){let[e,t]=f(!1),[n,o]=f(""),s=it(async r=>{t(!0),o("");try{return await r()}catch(l){o(l.message);return}finally{t(!1)}},[]);return{busy:e,error:n,run:s,setError:o}}function A({p:e,label:t,empty:n,render:o,id:s}){return m`<div class="list" id=${s} aria-busy=${e.loading}>
    <${U} text=${e.error} />
    ${!e.loading&&!e.error&&e.items.length===0&&m`<p class="empty">${n}</p>`}
    ${e.items.length>0&&m`<ul aria-label=${t}>${e.items.map(o)}</ul>`}
    <${Rt} p=${e} label=${t} />
  </div>`}var T=(...e)=>"#/"+e.map(encodeURIComponent).join("/");function ct(e){let t=e.scope?"in scope \u201C"+e.scope+"\u201D":"globally",n=e.chain.length>1?", which inherits along "+e.chain.join(" \u2192 "):"";return"member of "+e.membership+" "+t+n+"; granted to "+e.granted_by}function ut({notify:e}){let t=x(p=>w("roles",{limit:E,after:p}),p=>p.role,[]),[n,o]=f(""),[s,r]=f(""),[l,c]=f(""),u=j(null);I(()=>{!l&&u.current&&u.current.isConnected&&u.current.focus()},[l]);let i=L();return m`
    <section aria-labelledby="new-role-h">
      <h2 id="new-role-h">New role</h2>
      <form class="inline" onSubmit=${p=>{p.preventDefault(),i.run(async()=>{await C("POST","role/"+$(n),{body:s?{description:s}:void 0}),e("Role "+n+" created."),o(""),r(""),t.reload()})}}>
        <${P} id="new-role" label="Role name" value=${n} onInput=${o} required />
        <${P} id="new-role-desc" label="Description" value=${s} onInput=${r} />
        <button type="submit" disabled=${i.busy}>Create role</button>
      </form>
      <${U} text=${i.error} id="new-role-error" />
    </section>
    <section aria-labelledby="roles-h">
      <h2 id="roles-h">Roles</h2>
      <${A} p=${t} label="Roles" id="roles-list" empty="No roles yet." render=${p=>m`
        <li key=${p.role} class="row">
          <a href=${T("role",p.role)}>${p.role}</a>
          <span class="desc">${p.description}</span>
          <button type="button" class="danger" onClick=${a=>{u.current=a.currentTarget,c(p.role)}}
            aria-label=${"Delete role "+p.role}>Delete</button>
        </li>`} />
    </section>
    ${l&&m`<${At} role=${l} onClose=${p=>{c(""),p&&(e(p),t.reload(),u.current=null)}} />`}`}var ce=100;function At({role:e,onClose:t}){let n=j(),[o,s]=f(null),r=L();I(()=>{let i=n.current;i.showModal();let _=()=>t("");return i.addEventListener("cancel",_),r.run(async()=>{let p="role/"+$(e),[a,d,b,R,h]=await Promise.all([w(p),w("members/"+$(e),{limit:ce}),w("role_permissions/"+$(e),{limit:ce}),w(p+"/inherits",{limit:ce}),w(p+"/inherited_by",{limit:ce})]);s({counts:a.counts,members:d.map(y=>y.user),perms:b.map(y=>y.name),parents:R.map(y=>y.role),children:h.map(y=>y.role)})}),()=>i.removeEventListener("cancel",_)},[e]);let l=()=>r.run(async()=>{let i=await C("DELETE","role/"+$(e)),_=o.counts;t(i.deleted?"Role "+e+" deleted, with "+q(_.members+_.scoped_members,"membership")+" and "+q(_.permissions,"permission")+".":"Role "+e+" was already gone.")}),c=(i,_)=>_===0?"none":i.join(", ")+(_>i.length?" and "+(_-i.length)+" more":""),u=o&&o.counts;return m`<dialog ref=${n} aria-labelledby="del-h" aria-describedby="del-what" id="delete-dialog">
    <h2 id="del-h">Delete role “${e}”?</h2>
    <${U} text=${r.error} />
    ${o?m`<div id="del-what">
      <p>This also removes, for good:</p>
      <ul class="cascade">
        <li><strong>${q(u.members,"global membership")}</strong>: ${c(o.members,u.members)}</li>
        <li><strong>${q(u.scoped_members,"membership")} in a scope</strong>${u.scoped_members?" (listed on the Members page)":""}</li>
        <li><strong>${q(u.permissions,"permission")}</strong>: ${c(o.perms,u.permissions)}</li>
        <li><strong>${q(u.parents,"parent link")}</strong> (it inherits from): ${c(o.parents,u.parents)}</li>
        <li><strong>${q(u.children,"child link")}</strong> (roles inheriting from it lose what it grants): ${c(o.children,u.children)}</li>
      </ul>
      <p>Re-creating the role brings none of this back.</p></div>`:m`<p id="del-what" aria-busy="true">Looking up what goes with it…</p>`}
    <div class="actions">
      <button type="button" class="danger" id="confirm-delete" onClick=${l} disabled=${!o||r.busy}>Delete ${e}</button>
      <button type="button" onClick=${()=>t("")}>Cancel</button>
    </div>
  </dialog>`}function q(e,t){return e+" "+t+(e===1?"":"s")}function _t({role:e,notify:t}){let[n,o]=f(0),s=c=>{t(c),o(u=>u+1)},[r,l]=f({text:"",error:""});return I(()=>{let c=!0;return w("role/"+$(e)).then(u=>c&&l({text:u.description||"No description.",error:""}),u=>c&&l({text:"",error:u.message})),()=>{c=!1}},[e]),m`
    <p><a href="#/roles">← All roles</a></p>
    <p id="role-desc" class="about">${r.text}</p>
    <${U} text=${r.error} id="role-error" />
    <div class="cols">
      <${Ut} role=${e} tick=${n} changed=${s} />
      <${Nt} role=${e} tick=${n} changed=${s} />
    </div>
    <${Dt} role=${e} tick=${n} />
    <${It} role=${e} tick=${n} />
    <${Ht} role=${e} tick=${n} changed=${s} />`}function Ee({id:e,label:t,button:n,add:o,extra:s}){let[r,l]=f(""),c=L();return m`<form class="inline" onSubmit=${i=>{i.preventDefault(),c.run(async()=>{await o(r),l("")})}}>
      <${P} id=${e} label=${t} value=${r} onInput=${l} required />
      ${s}
      <button type="submit" disabled=${c.busy}>${n}</button>
    </form>
    <${U} text=${c.error} id=${e+"-error"} />`}function Ce({label:e,remove:t}){let n=L();return m`<button type="button" class="danger" aria-label=${e} disabled=${n.busy}
    onClick=${()=>n.run(t)}>Remove</button>${n.error&&m`<span class="error" role="alert">${n.error}</span>`}`}function Ut({role:e,tick:t,changed:n}){let o=x(r=>w("role_permissions/"+$(e),{limit:E,after:r}),r=>r.name,[e,t]),s=r=>"permission/"+$(e)+"/"+$(r);return m`<section aria-labelledby="grants-h">
    <h2 id="grants-h">Permissions granted to ${e}</h2>
    <${Ee} id="grant-name" label="Permission" button="Grant" add=${async r=>{await C("POST",s(r)),n("Granted "+r+" to "+e+".")}} />
    <${A} p=${o} label="Granted permissions" id="grants-list" empty="No permissions granted directly." render=${r=>m`
      <li key=${r.name} class="row"><a href=${T("whocan",r.name)}>${r.name}</a>
        <${Ce} label=${"Remove permission "+r.name} remove=${async()=>{await C("DELETE",s(r.name)),n("Removed "+r.name+" from "+e+".")}} /></li>`} />
  </section>`}function Nt({role:e,tick:t,changed:n}){let o=x(r=>w("role/"+$(e)+"/inherits",{limit:E,after:r}),r=>r.role,[e,t]),s=r=>"role/"+$(e)+"/inherits/"+$(r);return m`<section aria-labelledby="parents-h">
    <h2 id="parents-h">${e} inherits from</h2>
    <${Ee} id="parent-name" label="Parent role" button="Inherit" add=${async r=>{await C("POST",s(r)),n(e+" now inherits from "+r+".")}} />
    <${A} p=${o} label="Parent roles" id="parents-list" empty="Inherits from no role." render=${r=>m`
      <li key=${r.role} class="row"><a href=${T("role",r.role)}>${r.role}</a>
        <${Ce} label=${"Stop inheriting from "+r.role} remove=${async()=>{await C("DELETE",s(r.role)),n(e+" no longer inherits from "+r.role+".")}} /></li>`} />
  </section>`}function Dt({role:e,tick:t}){let n=x(o=>w("role/"+$(e)+"/inherited_by",{limit:E,after:o}),o=>o.role,[e,t]);return m`<section aria-labelledby="children-h">
    <h2 id="children-h">Roles inheriting from ${e}</h2>
    <${A} p=${n} label="Roles inheriting from it" id="children-list" empty="None." render=${o=>m`
      <li key=${o.role} class="row"><a href=${T("role",o.role)}>${o.role}</a></li>`} />
  </section>`}function It({role:e,tick:t}){let n=x(async o=>{let s=await w("role_permissions/"+$(e),{limit:E,after:o,effective:"true"});return Promise.all(s.map(async({name:r})=>{let l=await w("permission/"+$(e)+"/"+$(r),{explain:"true"});return{name:r,chain:l.chain||[]}}))},o=>o.name,[e,t]);return m`<section aria-labelledby="eff-h">
    <h2 id="eff-h">Effective permissions of ${e}</h2>
    <${A} p=${n} label="Effective permissions" id="effective-list" empty="None, granted or inherited." render=${o=>m`
      <li key=${o.name} class="row"><span class="name">${o.name}</span>
        <span class="src">${o.chain.length<=1?"granted directly":"inherited from "+o.chain[o.chain.length-1]+" ("+o.chain.join(" \u2192 ")+")"}</span></li>`} />
  </section>`}function Ht({role:e,tick:t,changed:n}){let[o,s]=f(""),[r,l]=f(""),c=x(i=>w("members/"+$(e),{limit:E,after:i,scope:r}),i=>i.user,[e,t,r]),u=i=>"membership/"+$(i)+"/"+$(e);return m`<section aria-labelledby="members-h">
    <h2 id="members-h">Members of ${e}</h2>
    <${Ee} id="member-user" label="User" button="Add member" add=${async i=>{await C("POST",u(i),{query:{scope:o}}),n(i+" is now a member of "+e+(o?" in scope "+o:"")+".")}} extra=${m`<${P} id="member-scope" label="Scope" value=${o} onInput=${s}
      hint="Empty: a global membership, which holds in every scope." />`} />
    <form class="inline" onSubmit=${i=>{i.preventDefault(),l(o)}}>
      <p class="hint">Showing ${r?"members in scope \u201C"+r+"\u201D (global ones included)":"global members"}.</p>
      <button type="submit">Show members in this scope</button>
    </form>
    <${A} p=${c} label="Members" id="members-list" empty="No members." render=${i=>m`
      <li key=${i.user} class="row"><a href=${T("user",i.user)}>${i.user}</a>
        <${Ce} label=${"Remove member "+i.user} remove=${async()=>{await C("DELETE",u(i.user),{query:{scope:r}}),n(i.user+" is no longer a member of "+e+(r?" in scope "+r:"")+".")}} /></li>`} />
  </section>`}function ue({go:e,initial:t}){let[n,o]=f(t||"");return m`<form class="inline" onSubmit=${s=>{s.preventDefault(),n&&e(T("user",n))}}>
    <${P} id="lookup-user" label="User" value=${n} onInput=${o} required />
    <button type="submit">Show user</button>
  </form>`}async function pt(e,t,n){let o=await w("has_permission/"+$(e)+"/"+$(t),{scope:n,explain:"true"});return o.result?e+" can "+t+": yes, "+ct(o.grant)+".":e+" cannot "+t+(n?" in scope "+n:"")+"."}function dt({user:e,go:t}){let[n,o]=f(""),[s,r]=f(""),l=x(h=>w("user_roles/"+$(e),{limit:E,after:h,scope:s}),h=>h.role,[e,s]),c=x(h=>w("user_permissions/"+$(e),{limit:E,after:h,scope:s}),h=>h.name,[e,s]),[u,i]=f(""),[_,p]=f(""),[a,d]=f({}),b=L();return m`
    <${ue} go=${t} initial=${e} />
    <form class="inline" onSubmit=${h=>{h.preventDefault(),r(n)}}>
      <${P} id="user-scope" label="Scope" value=${n} onInput=${o} hint="Empty: global memberships only." />
      <button type="submit">Apply scope</button>
    </form>
    <section aria-labelledby="check-h">
      <h2 id="check-h">Can ${e} …?</h2>
      <form class="inline" onSubmit=${h=>{h.preventDefault(),b.run(async()=>p(await pt(e,u,s)))}}>
        <${P} id="check-perm" label="Permission" value=${u} onInput=${i} required />
        <button type="submit" disabled=${b.busy}>Check</button>
      </form>
      <${U} text=${b.error} />
      <p id="check-result" role="status" class=${_.includes(": yes")?"yes":"no"}>${_}</p>
    </section>
    <div class="cols">
      <section aria-labelledby="uroles-h">
        <h2 id="uroles-h">Roles${s?" in scope "+s:""}</h2>
        <${A} p=${l} label="Roles of the user" id="user-roles" empty="Member of no role." render=${h=>m`
          <li key=${h.role} class="row"><a href=${T("role",h.role)}>${h.role}</a></li>`} />
      </section>
      <section aria-labelledby="uperms-h">
        <h2 id="uperms-h">Effective permissions</h2>
        <${A} p=${c} label="Effective permissions of the user" id="user-perms" empty="No permissions." render=${h=>m`
          <li key=${h.name} class="row wrap"><span class="name">${h.name}</span>
            <button type="button" aria-label=${"Why can "+e+" "+h.name+"?"}
              onClick=${async()=>{let y;try{y=await pt(e,h.name,s)}catch(g){y=g.message}d({...a,[h.name]:y})}}>Why?</button>
            ${a[h.name]&&m`<span class="why" role="status">${a[h.name]}</span>`}</li>`} />
      </section>
    </div>`}function mt({go:e,notify:t}){let n=x(p=>w("scoped_memberships",{limit:E,after:p}),p=>p.scope+"/"+p.user+"/"+p.role,[]),[o,s]=f(""),[r,l]=f(""),[c,u]=f(""),i=L();return m`
    <section aria-labelledby="addm-h">
      <h2 id="addm-h">Add a membership</h2>
      <form class="inline" onSubmit=${p=>{p.preventDefault(),i.run(async()=>{await C("POST","membership/"+$(o)+"/"+$(r),{query:{scope:c}}),t(o+" is now a member of "+r+(c?" in scope "+c:" globally")+"."),s(""),n.reload()})}}>
        <${P} id="m-user" label="User" value=${o} onInput=${s} required />
        <${P} id="m-role" label="Role" value=${r} onInput=${l} required />
        <${P} id="m-scope" label="Scope" value=${c} onInput=${u} hint="Empty: global, in every scope." />
        <button type="submit" disabled=${i.busy}>Add membership</button>
      </form>
      <${U} text=${i.error} />
    </section>
    <section aria-labelledby="lookup-h">
      <h2 id="lookup-h">A user's roles and permissions</h2>
      <${ue} go=${e} />
      <p class="hint">Global members are listed on each role's page.</p>
    </section>
    <section aria-labelledby="scoped-h">
      <h2 id="scoped-h">Memberships in one scope</h2>
      <${A} p=${n} label="Scoped memberships" id="scoped-list" empty="No scoped memberships." render=${p=>m`
        <li key=${p.scope+"/"+p.user+"/"+p.role} class="row">
          <span class="scope">${p.scope}</span>
          <span class="grow"><a href=${T("user",p.user)}>${p.user}</a> is a member of <a href=${T("role",p.role)}>${p.role}</a></span>
          <button type="button" class="danger" aria-label=${"Remove "+p.user+" from "+p.role+" in scope "+p.scope}
            onClick=${()=>i.run(async()=>{await C("DELETE","membership/"+$(p.user)+"/"+$(p.role),{query:{scope:p.scope}}),t(p.user+" is no longer a member of "+p.role+" in scope "+p.scope+"."),n.reload()})}>Remove</button></li>`} />
    </section>`}function ht({name:e,go:t}){let[n,o]=f(e||""),[s,r]=f(""),[l,c]=f(""),u=x(_=>e?w("which_users_can/"+$(e),{limit:E,after:_,scope:l}):Promise.resolve([]),_=>_.user,[e,l]),i=x(_=>e?w("which_roles_can/"+$(e),{limit:E,after:_}):Promise.resolve([]),_=>_.role,[e]);return m`
    <form class="inline" onSubmit=${_=>{_.preventDefault(),c(s),n&&t(T("whocan",n))}}>
      <${P} id="whocan-perm" label="Permission" value=${n} onInput=${o} required />
      <${P} id="whocan-scope" label="Scope" value=${s} onInput=${r} hint="Empty: global memberships only." />
      <button type="submit">Who can?</button>
    </form>
    ${e&&m`<div class="cols">
      <section aria-labelledby="wu-h">
        <h2 id="wu-h">Users who can ${e}${l?" in scope "+l:""}</h2>
        <${A} p=${u} label="Users" id="whocan-users" empty="Nobody." render=${_=>m`
          <li key=${_.user} class="row"><a href=${T("user",_.user)}>${_.user}</a></li>`} />
      </section>
      <section aria-labelledby="wr-h">
        <h2 id="wr-h">Roles that hold ${e}</h2>
        <${A} p=${i} label="Roles" id="whocan-roles" empty="No role." render=${_=>m`
          <li key=${_.role} class="row"><a href=${T("role",_.role)}>${_.role}</a></li>`} />
      </section>
    </div>`}`}var Lt=["add_role","del_role","add_permission","del_permission","add_membership","del_membership","add_inheritance","del_inheritance","batch"];function ft(){let[e,t]=f(""),[n,o]=f(""),s=x(r=>w("audit",{limit:E,before:r,action:n}),r=>r.id,[n]);return m`
    <form class="inline" onSubmit=${r=>{r.preventDefault(),o(e.trim())}}>
      <${P} id="audit-action" label="Action" value=${e} onInput=${t} list="audit-actions"
        hint="Empty: every action." />
      <datalist id="audit-actions">${Lt.map(r=>m`<option value=${r} />`)}</datalist>
      <button type="submit">Filter</button>
    </form>
    <${U} text=${s.error} />
    <div class="table-wrap">
      <table id="audit-table" aria-busy=${s.loading}>
        <caption>Audit records, newest first${n?", action "+n:""}</caption>
        <thead><tr><th scope="col">When (UTC)</th><th scope="col">Action</th><th scope="col">Resource</th>
          <th scope="col">Outcome</th><th scope="col">Request</th></tr></thead>
        <tbody>${s.items.map(r=>m`<tr key=${r.id}>
          <td data-label="When"><time datetime=${r.at}>${r.at.replace("T"," ").replace(/\.\d+Z$/,"")}</time></td>
          <td data-label="Action">${r.action}</td><td data-label="Resource">${r.resource}</td>
          <td data-label="Outcome">${r.outcome}</td><td data-label="Request" class="mono">${r.request_id}</td></tr>`)}</tbody>
      </table>
    </div>
    ${!s.loading&&!s.error&&s.items.length===0&&m`<p class="empty">No records.</p>`}
    <nav class="pager" aria-label="Audit pages">
      <button type="button" onClick=${s.prev} disabled=${!s.hasPrev}>Newer</button>
      <span>Page ${s.page}</span>
      <button type="button" onClick=${s.next} disabled=${!s.hasNext}>Older</button>
    </nav>`}function bt(){let e=location.hash.replace(/^#\/?/,"").split("/").map(t=>{try{return decodeURIComponent(t)}catch{return""}});return{page:e[0]||"roles",arg:e[1]||""}}var Mt=[["roles","Roles"],["members","Members"],["user","Users"],["whocan","Who can"],["audit","Audit log"]];function Wt({onIn:e,reason:t}){let[n,o]=f(""),[s,r]=f(t),[l,c]=f(!1);return m`<main class="signin" id="main">
    <h1>rolegate console</h1>
    <form onSubmit=${async i=>{i.preventDefault(),c(!0),r("");try{await C("GET","roles",{query:{limit:1},key:n.trim()}),Ge(n.trim()),e()}catch(_){r(_.message)}finally{c(!1)}}}>
      <${P} id="client-key" type="password" label="Client key" value=${n} onInput=${o} required
        hint="An admin key (AUTH_CLIENT_KEY or AUTH_CLIENT_KEYS). It stays in this tab only and is forgotten when the tab closes." />
      <button type="submit" disabled=${l}>Sign in</button>
    </form>
    <${U} text=${s} id="signin-error" />
  </main>`}function Ft(){let[e,t]=f(!!ve()),[n,o]=f(""),[s,r]=f(bt()),[l,c]=f(""),u=j();if(I(()=>{let d=()=>{r(bt()),c("")};return addEventListener("hashchange",d),Ke(b=>{we(),o(b),t(!1)}),()=>removeEventListener("hashchange",d)},[]),I(()=>{u.current&&u.current.focus()},[s.page,s.arg,e]),!e)return m`<${Wt} reason=${n} onIn=${()=>{o(""),t(!0)}} />`;let i=d=>{location.hash=d},_=c,p,a;switch(s.page){case"role":p="Role "+s.arg,a=m`<${_t} role=${s.arg} notify=${_} />`;break;case"members":p="Members",a=m`<${mt} go=${i} notify=${_} />`;break;case"user":p=s.arg?"User "+s.arg:"Users",a=s.arg?m`<${dt} user=${s.arg} go=${i} />`:m`<${ue} go=${i} />`;break;case"whocan":p=s.arg?"Who can "+s.arg:"Who can",a=m`<${ht} name=${s.arg} go=${i} />`;break;case"audit":p="Audit log",a=m`<${ft} />`;break;default:p="Roles",a=m`<${ut} notify=${_} />`}return document.title=p+" \xB7 rolegate console",m`
    <a class="skip" href="#main" onClick=${d=>{d.preventDefault(),u.current&&u.current.focus()}}>Skip to content</a>
    <header>
      <span class="brand">rolegate</span>
      <nav aria-label="Console">
        <ul>${Mt.map(([d,b])=>m`<li><a href=${"#/"+d} aria-current=${s.page===d?"page":void 0}>${b}</a></li>`)}</ul>
      </nav>
      <button type="button" class="signout" onClick=${()=>{we(),t(!1)}}>Sign out</button>
    </header>
    <main id="main">
      <h1 tabindex="-1" ref=${u}>${p}</h1>
      <p id="status" role="status" aria-live="polite">${l}</p>
      ${a}
    </main>`}ye(m`<${Ft} />`,document.getElementById("app"));
